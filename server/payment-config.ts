/**
 * The payment settings: PAYMENT_GATEWAY picks the simulator (default, except with NODE_ENV=production,
 * which must name one) or Stripe; Stripe's secrets come from the environment, its prices and return addresses from the config file's "stripe" section.
 *
 * @module
 */
import * as v from 'valibot';
import type { CheckoutSku } from '../core/ports/ports.ts';
import type { StripeCheckoutOptions } from '../adapters/stripe/checkout-options.ts';
import { ConfigError } from './config-error.ts';

const PriceId = v.pipe(v.string(), v.regex(/^price_[A-Za-z0-9]+$/, 'must be a Stripe Price id such as price_1PqR...'));
const Url = v.pipe(v.string(), v.url('must be an absolute URL'), v.regex(/^https?:/i, 'must be an http(s) URL'));
const SESSION_ID_PLACEHOLDER = '{CHECKOUT_SESSION_ID}';
const SuccessUrl = v.pipe(Url, v.includes(SESSION_ID_PLACEHOLDER, 'must carry {CHECKOUT_SESSION_ID}, which is replaced by the session id'));
const CancelUrl = v.pipe(
  Url,
  v.check((url) => !url.includes(SESSION_ID_PLACEHOLDER), 'cannot carry {CHECKOUT_SESSION_ID}: Stripe fills it in successUrl only'),
);

/**
 * The config file's "checkoutReturn": where the buyer's browser goes after the hosted checkout, with
 * Stripe Checkout and the simulator alike.
 */
export const CheckoutReturnSchema = v.strictObject({
  /** After paying; {CHECKOUT_SESSION_ID} becomes the session id, for GET /api/v1/checkout/status. */
  successUrl: SuccessUrl,
  /** After giving up. */
  cancelUrl: CancelUrl,
});
export type CheckoutReturn = v.InferOutput<typeof CheckoutReturnSchema>;

/** The example config's return addresses: a site under development on localhost:3000, which `npm start` does not run. */
export const EXAMPLE_CHECKOUT_RETURN: CheckoutReturn = {
  successUrl: 'http://localhost:3000/thanks?session_id={CHECKOUT_SESSION_ID}',
  cancelUrl: 'http://localhost:3000/pricing',
};

/**
 * Whether the buyer goes back to a site of the vendor's own after the simulator: "checkoutReturn" is set
 * and is not the example's, untouched, in the example config (`exampleContent: true`). When not, the
 * simulator ends the round trip on this server's own thanks page (docs/configuration.md).
 *
 * @param returnTo The return addresses read from the file.
 * @param isExample Whether the file is the example (its `exampleContent`).
 */
export function ownSiteConfigured(returnTo: CheckoutReturn | null, isExample: boolean): boolean {
  if (returnTo === null) return false;
  const untouched = returnTo.successUrl === EXAMPLE_CHECKOUT_RETURN.successUrl && returnTo.cancelUrl === EXAMPLE_CHECKOUT_RETURN.cancelUrl;
  return !(isExample && untouched);
}

/** The "stripe" section of the config file. */
export const StripeFileSchema = v.strictObject({
  /** The one-time Price of each SKU. */
  prices: v.strictObject({ standard: PriceId, plus_addon: PriceId, plus_bundle: PriceId }),
  /** Older place of checkoutReturn.successUrl, still read; give the addresses in one place only. */
  successUrl: v.optional(SuccessUrl),
  /** Older place of checkoutReturn.cancelUrl, still read. */
  cancelUrl: v.optional(CancelUrl),
  /** GET pricing shows each SKU's amount as its Price says (see docs/payments.md), not the file's. */
  livePrices: v.optional(v.boolean(), false),
  /** How old the live amounts may get before a request has them read again, in minutes. */
  livePricesRefreshMinutes: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1440)), 5),
  /** Checkout features, each passed on session creation (adapters/stripe/checkout-options.ts, docs/payments.md). */
  automaticTax: v.optional(v.boolean(), false),
  taxIdCollection: v.optional(v.boolean(), false),
  promotionCodes: v.optional(v.boolean(), false),
  invoiceCreation: v.optional(v.boolean(), false),
  abandonedCheckoutRecovery: v.optional(v.boolean(), false),
  promotionsConsent: v.optional(v.boolean(), false),
});
export type StripeFile = v.InferOutput<typeof StripeFileSchema>;

/** Which gateway takes payments, with its settings. */
export type PaymentConfig =
  | { gateway: 'simulator'; returnTo: CheckoutReturn | null }
  | {
    gateway: 'stripe';
    secretKey: string;
    /** Null when no webhook endpoint is set up: sessions are then settled by polling alone. */
    webhookSecret: string | null;
    /** Undefined for Stripe's real address. */
    apiBase: string | undefined;
    prices: Record<CheckoutSku, string>;
    successUrl: string;
    cancelUrl: string;
    /** A test-mode key: no real money moves. */
    testMode: boolean;
    /** When set, the offer's amounts are read from the Prices, again after `refreshMs`. */
    livePrices: { refreshMs: number } | null;
    /** The Checkout features switched on. */
    checkout: StripeCheckoutOptions;
  };

/**
 * Reads the payment settings.
 *
 * @param env The process environment.
 * @param section The config file's "stripe" section, if any.
 * @param file The config file, for messages.
 * @param checkoutReturn The config file's "checkoutReturn", if any.
 * @throws ConfigError naming the setting.
 */
export function paymentConfig(
  env: NodeJS.ProcessEnv,
  section: StripeFile | undefined,
  file: string,
  checkoutReturn?: CheckoutReturn,
): PaymentConfig {
  if (!env['PAYMENT_GATEWAY'] && env['NODE_ENV'] === 'production') {
    // Money is meant here: the simulator, which takes none and hands out keys, runs only when asked for.
    throw new ConfigError('NODE_ENV=production needs PAYMENT_GATEWAY set: stripe to take payments, or simulator for a demo that takes no money');
  }
  const gateway = env['PAYMENT_GATEWAY'] || 'simulator';
  const returnTo = returnAddresses(section, file, checkoutReturn);
  if (gateway === 'simulator') return { gateway, returnTo };
  if (gateway !== 'stripe') {
    throw new ConfigError(`PAYMENT_GATEWAY=${JSON.stringify(gateway)} is not available; use simulator (the default) or stripe`);
  }
  const secretKey = env['STRIPE_SECRET_KEY']?.trim();
  if (!secretKey) throw new ConfigError('PAYMENT_GATEWAY=stripe needs STRIPE_SECRET_KEY (sk_live_..., sk_test_... or a restricted rk_... key)');
  if (!/^(sk|rk)_(live|test)_[A-Za-z0-9]+$/.test(secretKey)) {
    throw new ConfigError(
      'STRIPE_SECRET_KEY must be a secret key (sk_live_/sk_test_) or a restricted key (rk_live_/rk_test_); a publishable pk_ key cannot create sessions',
    );
  }
  const webhookSecret = env['STRIPE_WEBHOOK_SECRET']?.trim() || null;
  if (webhookSecret !== null && !webhookSecret.startsWith('whsec_')) {
    throw new ConfigError('STRIPE_WEBHOOK_SECRET must be the endpoint signing secret (whsec_...), not an API key');
  }
  const apiBase = env['STRIPE_API_BASE']?.trim() || undefined;
  if (apiBase !== undefined && !(/^https?:\/\//.test(apiBase) && URL.canParse(apiBase))) {
    throw new ConfigError('STRIPE_API_BASE must be an http(s) URL such as https://api.stripe.com');
  }
  if (!section) {
    throw new ConfigError(`${file}: PAYMENT_GATEWAY=stripe needs the "stripe" section (prices)`);
  }
  if (!returnTo) {
    throw new ConfigError(`${file}: PAYMENT_GATEWAY=stripe needs "checkoutReturn" (successUrl, cancelUrl): where Stripe sends the buyer back`);
  }
  return {
    gateway,
    secretKey,
    webhookSecret,
    apiBase,
    prices: section.prices,
    successUrl: returnTo.successUrl,
    cancelUrl: returnTo.cancelUrl,
    testMode: secretKey.includes('_test_'),
    livePrices: section.livePrices ? { refreshMs: section.livePricesRefreshMinutes * 60_000 } : null,
    checkout: checkoutOptions(section, webhookSecret, file),
  };
}

/** The Checkout features of the "stripe" section; recovery needs the notifications that adopt a recovered session. */
function checkoutOptions(section: StripeFile, webhookSecret: string | null, file: string): StripeCheckoutOptions {
  const { automaticTax, taxIdCollection, promotionCodes, invoiceCreation, abandonedCheckoutRecovery, promotionsConsent } = section;
  if (abandonedCheckoutRecovery && webhookSecret === null) {
    throw new ConfigError(
      `${file}: "stripe.abandonedCheckoutRecovery" needs STRIPE_WEBHOOK_SECRET: a recovered session is a new one, and this server learns of it only by its notification`,
    );
  }
  return { automaticTax, taxIdCollection, promotionCodes, invoiceCreation, abandonedCheckoutRecovery, promotionsConsent };
}

/** The return addresses from "checkoutReturn", or from the "stripe" section's older fields. */
function returnAddresses(section: StripeFile | undefined, file: string, checkoutReturn: CheckoutReturn | undefined): CheckoutReturn | null {
  const { successUrl, cancelUrl } = section ?? {};
  if (successUrl === undefined && cancelUrl === undefined) return checkoutReturn ?? null;
  if (checkoutReturn) {
    throw new ConfigError(`${file}: give the return addresses once, in "checkoutReturn"; drop "stripe.successUrl" and "stripe.cancelUrl"`);
  }
  if (successUrl === undefined || cancelUrl === undefined) {
    throw new ConfigError(`${file}: "stripe.successUrl" and "stripe.cancelUrl" go together; better, move both to "checkoutReturn"`);
  }
  return { successUrl, cancelUrl };
}
