/**
 * The Stripe Checkout gateway: hosted checkout sessions created and read over Stripe's HTTP API with
 * fetch (no SDK), and Stripe's signed webhook events read as notifications.
 *
 * @module
 */
import * as v from 'valibot';
import { ApiError } from '../../core/http/errors.ts';
import { headerValue } from '../../core/http/http.ts';
import type { CheckoutSku, Clock, GatewayReport, Logger, PaidSession, PaymentGateway } from '../../core/ports/ports.ts';
import { toApiError } from './api-error.ts';
import { checkStripeSetup, type SetupReport } from './check-setup.ts';
import { checkoutFeatureParams, type StripeCheckoutOptions } from './checkout-options.ts';
import { createStripeClient, type StripeClientOptions } from './client.ts';
import { isLiveKey, readStripeEvent } from './notification.ts';
import { CheckoutSessionSchema, reportOf } from './session.ts';
import { type SignatureVerdict, verifyStripeSignature } from './signature.ts';
import { createStatusCache } from './status-cache.ts';

export { STRIPE_API_BASE, STRIPE_API_VERSION } from './client.ts';
export type { StripeCheckoutOptions } from './checkout-options.ts';
export type { SetupReport } from './check-setup.ts';
export { createLiveOffer, type LiveOffer, type LiveOfferOptions } from './live-offer.ts';

export interface StripeGatewayOptions extends StripeClientOptions {
  /** The webhook endpoint's signing secret (`whsec_...`); without it, notifications are refused. */
  webhookSecret: string | null;
  /** The one-time Price id of each SKU. */
  prices: Readonly<Record<CheckoutSku, string>>;
  /** Where Stripe sends the buyer after paying; must carry `{CHECKOUT_SESSION_ID}`. */
  successUrl: string;
  /** Where Stripe sends the buyer who gives up. */
  cancelUrl: string;
  /** Checkout features switched on for every session (tax, tax ids, promotion codes, invoices, recovery); none by default. */
  checkout?: StripeCheckoutOptions;
  logger: Logger;
  clock?: Clock;
  /** How long a status answer is reused, in ms; 3,000 by default. */
  statusCacheMs?: number;
}

/** The Stripe gateway, plus its startup check. */
export interface StripeGateway extends PaymentGateway {
  /**
   * Reads each SKU's Price once: a refused key or a missing price is a problem, an unreachable
   * provider a warning.
   *
   * @param offer The amount each SKU is offered at, to compare with the price.
   */
  checkSetup(offer: { readonly [K in CheckoutSku]?: string | undefined }): Promise<SetupReport>;
}

const CREATED = v.looseObject({ id: v.string(), url: v.string(), expires_at: v.number() });
const SessionListSchema = v.looseObject({ object: v.literal('list'), data: v.array(CheckoutSessionSchema), has_more: v.boolean() });

const REFUSALS: Record<Exclude<SignatureVerdict, 'ok'>, string> = {
  missing: 'The Stripe-Signature header is missing.',
  malformed: 'The Stripe-Signature header has no timestamp or no v1 signature.',
  mismatch: 'No v1 signature in the Stripe-Signature header matches the body.',
  stale: 'The signed timestamp is more than 300 seconds away from the server time.',
};

/**
 * Creates the gateway.
 *
 * @param options The keys, the prices and the return addresses.
 */
export function createStripeGateway(options: StripeGatewayOptions): StripeGateway {
  const { logger, prices } = options;
  const clock = options.clock ?? { now: () => Date.now() };
  const client = createStripeClient(options);
  const cache = createStatusCache<GatewayReport>(clock, options.statusCacheMs ?? 3000);
  const webhookSecret = options.webhookSecret;
  const livemode = isLiveKey(options.secretKey);
  const features = checkoutFeatureParams(options.checkout);

  const gateway: StripeGateway = {
    name: 'stripe',

    async createCheckout({ sku, channel }) {
      // One random reference per checkout: it names the order in Stripe's dashboard and, as the
      // Idempotency-Key, keeps a retried call from opening a second session.
      const reference = crypto.randomUUID();
      let answer: unknown;
      try {
        answer = await client.call({
          method: 'POST',
          path: '/v1/checkout/sessions',
          idempotencyKey: reference,
          form: {
            mode: 'payment',
            line_items: [{ price: prices[sku], quantity: 1 }],
            success_url: options.successUrl,
            cancel_url: options.cancelUrl,
            client_reference_id: reference,
            metadata: { sku, channel },
            ...features,
          },
        });
      } catch (error) {
        throw toApiError(error, 'create a checkout session', logger);
      }
      const created = v.safeParse(CREATED, answer);
      if (!created.success) throw toApiError(new Error('the created session has no id, url or expires_at'), 'create a checkout session', logger);
      return { sessionId: created.output.id, url: created.output.url, expiresAt: created.output.expires_at * 1000 };
    },

    checkStatus(session) {
      return cache.get(session.id, async () => {
        let answer: unknown;
        try {
          answer = await client.call({
            method: 'GET',
            path: `/v1/checkout/sessions/${encodeURIComponent(session.id)}?expand[]=payment_intent`,
          });
        } catch (error) {
          throw toApiError(error, 'read a checkout session', logger);
        }
        const parsed = v.safeParse(CheckoutSessionSchema, answer);
        if (!parsed.success) throw toApiError(new Error('the answer is not a checkout session'), 'read a checkout session', logger);
        return reportOf(parsed.output);
      });
    },

    async listPaid(since, limit) {
      const sessions: PaidSession[] = [];
      // Stripe lists newest first, 100 a page; complete ones that are paid are what fulfilment needs.
      for (let after: string | null = null;;) {
        const query = `status=complete&limit=100&created[gte]=${Math.floor(since / 1000)}&expand[]=data.payment_intent${
          after ? `&starting_after=${encodeURIComponent(after)}` : ''
        }`;
        let answer: unknown;
        try {
          answer = await client.call({ method: 'GET', path: `/v1/checkout/sessions?${query}` });
        } catch (error) {
          throw toApiError(error, 'list checkout sessions', logger);
        }
        const page = v.safeParse(SessionListSchema, answer);
        if (!page.success) throw toApiError(new Error('the answer is not a list of checkout sessions'), 'list checkout sessions', logger);
        for (const session of page.output.data) {
          const report = reportOf(session);
          if (report.status !== 'paid') continue;
          if (sessions.length === limit) return { sessions, complete: false };
          sessions.push({ id: session.id, ...report });
        }
        const last = page.output.data.at(-1);
        if (!page.output.has_more || !last) return { sessions, complete: true };
        after = last.id;
      }
    },

    async readNotification(headers, rawBody) {
      if (webhookSecret === null) {
        throw new ApiError('notifications_unavailable', 'This server accepts no Stripe notifications: no webhook secret is configured.');
      }
      const verdict = await verifyStripeSignature(headerValue(headers, 'stripe-signature'), rawBody, webhookSecret, clock.now() / 1000);
      if (verdict !== 'ok') {
        logger.warn('stripe: notification refused', { reason: verdict });
        throw new ApiError('invalid_signature', REFUSALS[verdict]);
      }
      const notification = readStripeEvent(rawBody, livemode);
      if (notification.session) cache.forget(notification.session.id);
      return notification;
    },

    checkSetup(offer) {
      return checkStripeSetup(client, prices, offer);
    },
  };
  return gateway;
}
