/**
 * The payment settings: PAYMENT_GATEWAY picks the simulator (default, except with NODE_ENV=production,
 * which must name one) or Stripe; Stripe's secrets come from the environment, its prices and return addresses from the config file's "stripe" section.
 *
 * @module
 */
import * as v from 'valibot';
import type { CheckoutSku } from '../core/ports.ts';
import { ConfigError } from './config-error.ts';

const PriceId = v.pipe(v.string(), v.regex(/^price_[A-Za-z0-9]+$/, 'must be a Stripe Price id such as price_1PqR...'));
const Url = v.pipe(v.string(), v.url('must be an absolute URL'));

/** The "stripe" section of the config file. */
export const StripeFileSchema = v.strictObject({
  /** The one-time Price of each SKU. */
  prices: v.strictObject({ standard: PriceId, plus_addon: PriceId, plus_bundle: PriceId }),
  /** Where the buyer lands after paying; Stripe fills in {CHECKOUT_SESSION_ID}. */
  successUrl: v.pipe(Url, v.includes('{CHECKOUT_SESSION_ID}', 'must carry {CHECKOUT_SESSION_ID}, which Stripe replaces by the session id')),
  /** Where the buyer lands after giving up. */
  cancelUrl: Url,
  /** GET pricing shows each SKU's amount as its Price says (see docs/payments.md), not the file's. */
  livePrices: v.optional(v.boolean(), false),
  /** How old the live amounts may get before a request has them read again, in minutes. */
  livePricesRefreshMinutes: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1440)), 5),
});
export type StripeFile = v.InferOutput<typeof StripeFileSchema>;

/** Which gateway takes payments, with its settings. */
export type PaymentConfig =
  | { gateway: 'simulator' }
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
    };

/**
 * Reads the payment settings.
 *
 * @param env The process environment.
 * @param section The config file's "stripe" section, if any.
 * @param file The config file, for messages.
 * @throws ConfigError naming the setting.
 */
export function paymentConfig(env: NodeJS.ProcessEnv, section: StripeFile | undefined, file: string): PaymentConfig {
  if (!env['PAYMENT_GATEWAY'] && env['NODE_ENV'] === 'production') {
    // Money is meant here: the simulator, which takes none and hands out keys, runs only when asked for.
    throw new ConfigError('NODE_ENV=production needs PAYMENT_GATEWAY set: stripe to take payments, or simulator for a demo that takes no money');
  }
  const gateway = env['PAYMENT_GATEWAY'] || 'simulator';
  if (gateway === 'simulator') return { gateway };
  if (gateway !== 'stripe') {
    throw new ConfigError(`PAYMENT_GATEWAY=${JSON.stringify(gateway)} is not available; use simulator (the default) or stripe`);
  }
  const secretKey = env['STRIPE_SECRET_KEY']?.trim();
  if (!secretKey) throw new ConfigError('PAYMENT_GATEWAY=stripe needs STRIPE_SECRET_KEY (sk_live_..., sk_test_... or a restricted rk_... key)');
  if (!/^(sk|rk)_(live|test)_[A-Za-z0-9]+$/.test(secretKey)) {
    throw new ConfigError('STRIPE_SECRET_KEY must be a secret key (sk_live_/sk_test_) or a restricted key (rk_live_/rk_test_); a publishable pk_ key cannot create sessions');
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
    throw new ConfigError(`${file}: PAYMENT_GATEWAY=stripe needs the "stripe" section (prices, successUrl, cancelUrl)`);
  }
  return {
    gateway,
    secretKey,
    webhookSecret,
    apiBase,
    prices: section.prices,
    successUrl: section.successUrl,
    cancelUrl: section.cancelUrl,
    testMode: secretKey.includes('_test_'),
    livePrices: section.livePrices ? { refreshMs: section.livePricesRefreshMinutes * 60_000 } : null,
  };
}
