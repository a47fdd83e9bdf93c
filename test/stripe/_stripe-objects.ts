/**
 * The Stripe objects of the stand-in, in the shapes Stripe documents: error bodies, the Checkout
 * Session made from a form, the Price, the webhook event and its Stripe-Signature header (computed
 * with node:crypto, independently of the Web Crypto code under test).
 */
import { createHmac, randomBytes } from 'node:crypto';

/** A fault served instead of the next answer. */
export type Fault =
  | { kind: 'status'; status: number; headers?: Record<string, string>; body?: unknown }
  | { kind: 'stall' }
  | { kind: 'drop' };

export interface StandInPrice {
  id: string;
  unit_amount: number;
  currency?: string;
  active?: boolean;
  type?: 'one_time' | 'recurring';
}

/** A Checkout Session as the stand-in stores it. */
export type Session = Record<string, unknown> & { id: string; payment_intent: unknown };

/** The Stripe API version the stand-in's objects and events are written in, as the adapter pins it. */
export const STAND_IN_API_VERSION = '2024-06-20';

/**
 * Refuses a call that does not ask for the stand-in's API version: Stripe answers an unknown version with
 * this error, and the stand-in can answer no other version's shapes.
 */
export function versionFault(header: string | string[] | undefined): Fault | null {
  if (header === STAND_IN_API_VERSION) return null;
  if (header === undefined) {
    return stripeError(400, {
      type: 'invalid_request_error',
      message: `The stand-in answers Stripe API version ${STAND_IN_API_VERSION} only: send Stripe-Version.`,
    });
  }
  return stripeError(400, { type: 'invalid_request_error', message: `Invalid Stripe API version: ${String(header)}` });
}

/** An error answer: `{error: {type, code?, param?, message}}`. */
export function stripeError(status: number, error: Record<string, unknown>): Fault {
  return { kind: 'status', status, body: { error } };
}

/** Parses form fields, keeping bracketed names as they are (`metadata[sku]`). */
export function formFields(body: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(body));
}

/** The `prefix[name]` fields of a form as an object. */
function nested(form: Record<string, string>, prefix: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(form)) {
    const match = new RegExp(`^${prefix}\\[([^\\]]+)\\]$`).exec(key);
    if (match?.[1]) out[match[1]] = value;
  }
  return out;
}

/** A new open Checkout Session for a validated form. */
export function newSession(form: Record<string, string>, price: StandInPrice, nowSeconds: number): Session {
  const id = `cs_test_${randomBytes(24).toString('hex')}`;
  return {
    id,
    object: 'checkout.session',
    amount_total: price.unit_amount * Number(form['line_items[0][quantity]'] ?? '1'),
    cancel_url: form['cancel_url'] ?? null,
    client_reference_id: form['client_reference_id'] ?? null,
    created: nowSeconds,
    currency: price.currency ?? 'usd',
    expires_at: nowSeconds + 24 * 3600,
    livemode: false,
    metadata: nested(form, 'metadata'),
    mode: 'payment',
    payment_intent: null,
    payment_status: 'unpaid',
    recovered_from: null,
    status: 'open',
    success_url: form['success_url'],
    url: `https://checkout.stripe.com/c/pay/${id}`,
  };
}

/** The Price object. */
export function priceObject(price: StandInPrice): Record<string, unknown> {
  return {
    id: price.id,
    object: 'price',
    active: price.active ?? true,
    currency: price.currency ?? 'usd',
    livemode: false,
    type: price.type ?? 'one_time',
    unit_amount: price.unit_amount,
  };
}

/** An event about a session, as Stripe POSTs it to a webhook endpoint. */
export function eventJson(type: string, session: Session, nowSeconds: number): string {
  return JSON.stringify({
    id: `evt_${randomBytes(12).toString('hex')}`,
    object: 'event',
    api_version: STAND_IN_API_VERSION,
    created: nowSeconds,
    data: { object: { ...session } },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  });
}

/** `t=<timestamp>,v1=<hex HMAC-SHA-256 of "t.body" under the secret>`, extra v1 entries first. */
export function signatureHeader(body: string, secret: string, timestampSeconds: number, extraSignatures: string[] = []): string {
  const signature = createHmac('sha256', secret).update(`${timestampSeconds}.${body}`, 'utf8').digest('hex');
  return [`t=${timestampSeconds}`, ...extraSignatures.map((s) => `v1=${s}`), `v1=${signature}`].join(',');
}

/** What Checkout collected of the buyer: `customer_details` of a completed session. */
export interface StandInBuyer {
  email: string;
  name: string;
  country: string;
}

/** `customer_details` as Stripe documents it for a completed session. */
export function customerDetails(buyer: StandInBuyer): Record<string, unknown> {
  const address = { city: null, country: buyer.country, line1: null, line2: null, postal_code: null, state: null };
  return { address, email: buyer.email, name: buyer.name, phone: null, tax_exempt: 'none', tax_ids: [] };
}

/** The Charge of a paid session's PaymentIntent, refunded by `amountRefunded` (cents). */
export function chargeObject(chargeId: string, intentId: string, amount: number, amountRefunded: number, nowSeconds: number): Record<string, unknown> {
  return {
    id: chargeId,
    object: 'charge',
    amount,
    amount_captured: amount,
    amount_refunded: amountRefunded,
    captured: true,
    created: nowSeconds,
    currency: 'usd',
    disputed: false,
    livemode: false,
    paid: true,
    payment_intent: intentId,
    refunded: amountRefunded === amount,
    status: 'succeeded',
  };
}

/** A Dispute of that charge, in `status` (needs_response when opened; won or lost when closed). */
export function disputeObject(chargeId: string, intentId: string, amount: number, status: string, nowSeconds: number): Record<string, unknown> {
  return {
    id: `dp_${chargeId.slice(3)}`,
    object: 'dispute',
    amount,
    charge: chargeId,
    created: nowSeconds,
    currency: 'usd',
    is_charge_refundable: false,
    livemode: false,
    metadata: {},
    payment_intent: intentId,
    reason: 'fraudulent',
    status,
  };
}

/** An event of any object, as Stripe POSTs it to a webhook endpoint. */
export function objectEventJson(type: string, object: Record<string, unknown>, nowSeconds: number): string {
  return JSON.stringify({
    id: `evt_${randomBytes(12).toString('hex')}`,
    object: 'event',
    api_version: STAND_IN_API_VERSION,
    created: nowSeconds,
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  });
}

/**
 * One page of GET /v1/checkout/sessions: newest first, filtered by `status` and `created[gte]`, after
 * `starting_after`, at most `limit` (10 by default, 100 at most), as Stripe lists.
 */
export function sessionListPage(sessions: Session[], query: URLSearchParams): Record<string, unknown> {
  const status = query.get('status');
  const since = Number(query.get('created[gte]') ?? '0');
  const limit = Math.min(Number(query.get('limit') ?? '10'), 100);
  let matching = sessions
    .filter((s) => (status === null || s['status'] === status) && Number(s['created']) >= since)
    .sort((a, b) => Number(b['created']) - Number(a['created']) || (a.id < b.id ? 1 : -1));
  const after = query.get('starting_after');
  if (after !== null) matching = matching.slice(matching.findIndex((s) => s.id === after) + 1);
  return { object: 'list', data: matching.slice(0, limit), has_more: matching.length > limit, url: '/v1/checkout/sessions' };
}

/** The 401 Stripe answers to a missing or wrong key (Bearer, or Basic with the key as user), or null. */
export function authorizationFault(auth: string | undefined, secretKey: string): Fault | null {
  if (!auth) {
    return stripeError(401, {
      type: 'invalid_request_error',
      message: 'You did not provide an API key. You need to provide your API key in the Authorization header.',
    });
  }
  const key = auth.startsWith('Bearer ') ? auth.slice(7) : Buffer.from(auth.replace(/^Basic /, ''), 'base64').toString().replace(/:$/, '');
  if (key === secretKey) return null;
  return stripeError(401, { type: 'invalid_request_error', message: `Invalid API Key provided: ${key.slice(0, 8)}****${key.slice(-4)}` });
}

/**
 * An event about the charge of a paid session: `charge.refunded` (in full unless `amountRefunded`),
 * `charge.dispute.created` (needs_response) or `charge.dispute.closed` (`status`, won by default).
 */
export function chargeEventJson(
  type: 'charge.refunded' | 'charge.dispute.created' | 'charge.dispute.closed',
  session: Session,
  options: { amountRefunded?: number; status?: string; disputeId?: string },
  nowSeconds: number,
): string {
  const intentId = session.payment_intent;
  if (typeof intentId !== 'string' || session['payment_status'] !== 'paid') throw new Error(`stand-in: session ${session.id} is not paid`);
  const chargeId = `ch_${intentId.slice(3)}`;
  const amount = Number(session['amount_total']);
  const object = type === 'charge.refunded'
    ? chargeObject(chargeId, intentId, amount, options.amountRefunded ?? amount, nowSeconds)
    : disputeObject(chargeId, intentId, amount, type === 'charge.dispute.created' ? 'needs_response' : (options.status ?? 'won'), nowSeconds);
  if (options.disputeId !== undefined && type !== 'charge.refunded') object['id'] = options.disputeId;
  return objectEventJson(type, object, nowSeconds);
}
