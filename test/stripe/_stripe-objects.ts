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
    api_version: '2024-06-20',
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
