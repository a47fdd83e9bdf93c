/**
 * Test events as Stripe sends them to a webhook endpoint (API version 2024-06-20): a Checkout Session
 * paid, its charge refunded, a dispute opened and won, each about one session's payment, signed with the
 * endpoint's secret exactly as Stripe signs (`Stripe-Signature: t=<seconds>,v1=<hex HMAC-SHA-256 of
 * "t.body">`). The `payments trigger` command sends them to a running server (docs/payments.md), so a
 * refund can be tried before its payment, as `stripe trigger` lets one try Stripe's own events.
 *
 * The payment's PaymentIntent, charge and dispute ids are made from the session id, the same in every
 * command run, so that events sent one at a time, in any order, are about one payment.
 *
 * @module
 */
import { STRIPE_API_VERSION } from './client.ts';
import { computeSignature } from './signature.ts';

/** The events a vendor tries, by the name the command takes, with the Stripe event type each sends. */
export const TEST_EVENTS = {
  'payment-completed': 'checkout.session.completed',
  refund: 'charge.refunded',
  'dispute-opened': 'charge.dispute.created',
  'dispute-won': 'charge.dispute.closed',
} as const;

export type TestEventName = keyof typeof TEST_EVENTS;

/** What the events of one session say. */
export interface TestPayment {
  /** The Checkout Session id (`cs_test_...`) the server created. */
  session: string;
  /** Its PaymentIntent id; made from the session id when not given. */
  paymentIntent?: string | undefined;
  /** The amount paid, refunded and disputed, in the currency's smallest unit, and the currency (lower case). */
  amount: number;
  currency: string;
  /** The buyer Checkout collected. */
  email: string;
}

/** An event ready to send: its id and type, the exact body, and its Stripe-Signature header. */
export interface SignedTestEvent {
  id: string;
  type: (typeof TEST_EVENTS)[TestEventName];
  body: string;
  signature: string;
}

const encoder = new TextEncoder();

/** Hex of SHA-256, its first `length` digits: the ids made from a session id. */
async function digest(text: string, length: number): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
  return Array.from(hash, (byte) => byte.toString(16).padStart(2, '0')).join('').slice(0, length);
}

/** The ids of the session's payment: the same for every event of that session. */
async function idsOf(payment: TestPayment): Promise<{ intent: string; charge: string; dispute: string }> {
  const tag = await digest(payment.session, 24);
  return { intent: payment.paymentIntent ?? `pi_test_${tag}`, charge: `ch_test_${tag}`, dispute: `dp_test_${tag}` };
}

/** The `data.object` of an event, as Stripe's API version 2024-06-20 shapes it (the fields a receiver reads, and a few more). */
function objectOf(
  name: TestEventName,
  payment: TestPayment,
  ids: { intent: string; charge: string; dispute: string },
  created: number,
): Record<string, unknown> {
  const { amount, currency } = payment;
  if (name === 'payment-completed') {
    return {
      id: payment.session,
      object: 'checkout.session',
      amount_total: amount,
      currency,
      customer_details: { email: payment.email, name: 'Test Buyer', address: { country: 'US' } },
      expires_at: created + 24 * 3600,
      livemode: false,
      metadata: {},
      mode: 'payment',
      payment_intent: ids.intent,
      payment_status: 'paid',
      recovered_from: null,
      status: 'complete',
      url: null,
    };
  }
  if (name === 'refund') {
    return {
      id: ids.charge,
      object: 'charge',
      amount,
      amount_refunded: amount,
      currency,
      livemode: false,
      paid: true,
      payment_intent: ids.intent,
      refunded: true,
    };
  }
  const status = name === 'dispute-won' ? 'won' : 'needs_response';
  return {
    id: ids.dispute,
    object: 'dispute',
    amount,
    charge: ids.charge,
    currency,
    livemode: false,
    payment_intent: ids.intent,
    reason: 'fraudulent',
    status,
  };
}

/**
 * One test event for a session's payment, signed.
 *
 * @param name Which event.
 * @param payment The session and what its payment says.
 * @param secret The endpoint's signing secret (`whsec_...`), used as is, as Stripe does.
 * @param nowSeconds The event's `created` and the signature's timestamp.
 */
export async function signedTestEvent(name: TestEventName, payment: TestPayment, secret: string, nowSeconds: number): Promise<SignedTestEvent> {
  const ids = await idsOf(payment);
  const id = `evt_test_${crypto.randomUUID().replace(/-/g, '')}`;
  const type = TEST_EVENTS[name];
  const event = {
    id,
    object: 'event',
    api_version: STRIPE_API_VERSION,
    created: nowSeconds,
    data: { object: objectOf(name, payment, ids, nowSeconds) },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  };
  const body = JSON.stringify(event);
  const signature = `t=${nowSeconds},v1=${await computeSignature(secret, nowSeconds, encoder.encode(body))}`;
  return { id, type, body, signature };
}
