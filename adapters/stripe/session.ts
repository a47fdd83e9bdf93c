/**
 * Stripe's Checkout Session as this server reads it, and what its fields mean for the checkout state.
 *
 * @module
 */
import * as v from 'valibot';
import type { GatewayReport, GatewayStatus, Purchase } from '../../core/ports/ports.ts';

/** The PaymentIntent, when the session is fetched with `expand[]=payment_intent`. */
const PaymentIntentSchema = v.looseObject({ id: v.string(), status: v.string() });

/** Who paid, as Checkout collected it (filled once the session is complete). */
const CustomerDetailsSchema = v.looseObject({
  email: v.nullish(v.string()),
  name: v.nullish(v.string()),
  address: v.nullish(v.looseObject({ country: v.nullish(v.string()) })),
});

/** The fields of a Checkout Session this server relies on (stable across Stripe API versions). */
export const CheckoutSessionSchema = v.looseObject({
  id: v.string(),
  object: v.literal('checkout.session'),
  status: v.nullable(v.picklist(['open', 'complete', 'expired'])),
  payment_status: v.picklist(['paid', 'unpaid', 'no_payment_required']),
  url: v.nullish(v.string()),
  expires_at: v.number(),
  payment_intent: v.nullish(v.union([v.string(), PaymentIntentSchema])),
  customer_details: v.nullish(CustomerDetailsSchema),
  /** What the buyer paid, in the currency's smallest unit, and the lower-case ISO 4217 code. */
  amount_total: v.nullish(v.number()),
  currency: v.nullish(v.string()),
  /** The expired session this one recovers (abandoned-checkout recovery), else null. */
  recovered_from: v.nullish(v.string()),
});

/** Currencies Stripe counts in whole units (https://docs.stripe.com/currencies#zero-decimal). */
const ZERO_DECIMAL = new Set(['BIF', 'CLP', 'DJF', 'GNF', 'JPY', 'KMF', 'KRW', 'MGA', 'PYG', 'RWF', 'UGX', 'VND', 'VUV', 'XAF', 'XOF', 'XPF']);

/** Stripe's amount in the smallest unit as a decimal of the major unit: 4900 USD is "49.00", 500 JPY "500". */
export function majorAmount(amount: number, currency: string): string {
  if (ZERO_DECIMAL.has(currency.toUpperCase())) return String(amount);
  return `${Math.floor(amount / 100)}.${String(amount % 100).padStart(2, '0')}`;
}
export type StripeCheckoutSession = v.InferOutput<typeof CheckoutSessionSchema>;

/** PaymentIntent states after which a completed but unpaid session will not be paid. */
const FAILED_INTENT = new Set(['requires_payment_method', 'canceled']);

/**
 * The checkout state a session stands for: open is pending; complete and paid (or free) is paid;
 * complete and unpaid is a delayed payment method still processing, or failed once its PaymentIntent
 * asks for another payment method or is canceled; expired is expired.
 *
 * @param session The session as Stripe answers it.
 * @returns The state to report to the core.
 */
export function statusOfSession(session: StripeCheckoutSession): GatewayStatus {
  switch (session.status) {
    case 'expired':
      return 'expired';
    case 'complete': {
      if (session.payment_status !== 'unpaid') return 'paid';
      const intent = session.payment_intent;
      return typeof intent === 'object' && intent !== null && FAILED_INTENT.has(intent.status) ? 'failed' : 'processing';
    }
    default:
      return 'pending';
  }
}

/** What the session says of the buyer and the payment (`customer_details`, the PaymentIntent's id). */
export function purchaseOf(session: StripeCheckoutSession): Purchase {
  const details = session.customer_details;
  const intent = session.payment_intent;
  return {
    email: details?.email ?? null,
    name: details?.name ?? null,
    country: details?.address?.country ?? null,
    paymentRef: typeof intent === 'string' ? intent : (intent?.id ?? null),
    ...(typeof session.amount_total === 'number' && Number.isSafeInteger(session.amount_total) && session.amount_total >= 0 && session.currency
      ? { amount: majorAmount(session.amount_total, session.currency), currency: session.currency.toUpperCase() }
      : { amount: null, currency: null }),
  };
}

/** The state of a session and, once it is paid, its purchase. */
export function reportOf(session: StripeCheckoutSession): GatewayReport {
  const status = statusOfSession(session);
  const recovered = session.recovered_from ? { recoveredFrom: session.recovered_from } : {};
  return status === 'paid' ? { status, purchase: purchaseOf(session), ...recovered } : { status, ...recovered };
}
