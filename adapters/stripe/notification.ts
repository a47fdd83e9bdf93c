/**
 * Reading a Stripe webhook event once its signature holds: the four Checkout events this server acts
 * on, each mapped to the state it reports (with the buyer once paid), and the refund and dispute events
 * mapped to what they say of a payment. Other events are acknowledged and ignored.
 *
 * @module
 */
import * as v from 'valibot';
import { ApiError } from '../../core/http/errors.ts';
import type { GatewayNotification, GatewayStatus, PaymentFlag } from '../../core/ports/ports.ts';
import { CheckoutSessionSchema, purchaseOf, statusOfSession, type StripeCheckoutSession } from './session.ts';

const EventSchema = v.looseObject({
  id: v.string(),
  type: v.string(),
  livemode: v.optional(v.boolean()),
  data: v.looseObject({ object: v.looseObject({}) }),
});

/** What each handled event says of its session. */
const EVENT_STATUS: Record<string, (session: StripeCheckoutSession) => GatewayStatus> = {
  // A completed session is paid, or (a delayed payment method) still processing.
  'checkout.session.completed': statusOfSession,
  'checkout.session.async_payment_succeeded': () => 'paid',
  'checkout.session.async_payment_failed': () => 'failed',
  'checkout.session.expired': () => 'expired',
};

/** A PaymentIntent reference: its id, or the object when expanded. */
const IntentRef = v.nullish(v.union([v.string(), v.looseObject({ id: v.string() })]));
const ChargeSchema = v.looseObject({ object: v.literal('charge'), amount: v.number(), amount_refunded: v.number(), payment_intent: IntentRef });
const DisputeSchema = v.looseObject({ object: v.literal('dispute'), id: v.optional(v.string()), status: v.string(), payment_intent: IntentRef });

/**
 * What a refund or dispute event says of its payment: `charge.refunded` only when the whole amount was
 * refunded; `charge.dispute.created` a dispute; `charge.dispute.closed` a dispute, won or not.
 */
const PAYMENT_EVENTS: Record<string, (object: Record<string, unknown>) => { ref: string | null; flag: PaymentFlag | null; dispute?: string }> = {
  'charge.refunded': (object) => {
    const charge = parseOrRefuse(ChargeSchema, object, 'charge.refunded', 'a charge');
    return { ref: intentId(charge.payment_intent), flag: charge.amount_refunded >= charge.amount ? 'refunded' : null };
  },
  'charge.dispute.created': (object) => {
    const dispute = parseOrRefuse(DisputeSchema, object, 'charge.dispute.created', 'a dispute');
    return { ref: intentId(dispute.payment_intent), flag: 'disputed', ...disputeId(dispute) };
  },
  'charge.dispute.closed': (object) => {
    const dispute = parseOrRefuse(DisputeSchema, object, 'charge.dispute.closed', 'a dispute');
    return { ref: intentId(dispute.payment_intent), flag: dispute.status === 'won' ? 'dispute_won' : 'disputed', ...disputeId(dispute) };
  },
};

const disputeId = (dispute: { id?: string | undefined }): { dispute?: string } => (dispute.id === undefined ? {} : { dispute: dispute.id.slice(0, 255) });

const intentId = (ref: v.InferOutput<typeof IntentRef>): string | null => (typeof ref === 'string' ? ref : (ref?.id ?? null));

function parseOrRefuse<S extends v.GenericSchema>(schema: S, value: unknown, type: string, what: string): v.InferOutput<S> {
  const parsed = v.safeParse(schema, value);
  if (!parsed.success) throw new ApiError('invalid_request', `The ${type} event does not carry ${what}.`);
  return parsed.output;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Whether a Stripe API key is live (true), test (false), or neither form (null). */
export function isLiveKey(key: string): boolean | null {
  if (/^(sk|rk)_live_/.test(key)) return true;
  if (/^(sk|rk)_test_/.test(key)) return false;
  return null;
}

/**
 * Reads a verified event.
 *
 * @param rawBody The body whose signature was verified.
 * @param livemode Whether the server's API key is live (`sk_live_`, `rk_live_`), test, or unknown (null): an
 *   event whose `livemode` says the other is ignored (`payments trigger` signs `livemode: false` events with
 *   the real webhook secret; they must never touch live orders).
 * @returns The notification for the core.
 * @throws ApiError invalid_request when the signed body is not an event.
 */
export function readStripeEvent(rawBody: Uint8Array, livemode: boolean | null = null): GatewayNotification {
  let value: unknown;
  try {
    value = JSON.parse(utf8.decode(rawBody));
  } catch {
    throw new ApiError('invalid_request', 'The notification body is not JSON.');
  }
  const event = v.safeParse(EventSchema, value);
  if (!event.success) throw new ApiError('invalid_request', 'The notification body is not a Stripe event.');
  const { id, type, data } = event.output;
  if (livemode !== null && event.output.livemode !== undefined && event.output.livemode !== livemode) {
    return { eventId: id, type, session: null, ignored: 'livemode_mismatch' };
  }
  const paymentOf = PAYMENT_EVENTS[type];
  if (paymentOf) {
    // A partial refund, or a dispute of a payment with no PaymentIntent, changes no order.
    const { ref, flag, dispute } = paymentOf(data.object);
    return {
      eventId: id,
      type,
      session: null,
      ...(ref !== null && flag !== null ? { payment: { ref, flag, ...(dispute === undefined ? {} : { dispute }) } } : {}),
    };
  }
  const statusOf = EVENT_STATUS[type];
  if (!statusOf) return { eventId: id, type, session: null };
  const session = parseOrRefuse(CheckoutSessionSchema, data.object, type, 'a checkout session');
  const status = statusOf(session);
  const recovered = session.recovered_from ? { recoveredFrom: session.recovered_from } : {};
  return { eventId: id, type, session: { id: session.id, status, ...(status === 'paid' ? { purchase: purchaseOf(session) } : {}), ...recovered } };
}
