/**
 * Reading a Stripe webhook event once its signature holds: the four Checkout events this server acts
 * on, each mapped to the state it reports. Other events are acknowledged and ignored.
 *
 * @module
 */
import * as v from 'valibot';
import { ApiError } from '../../core/errors.ts';
import type { GatewayNotification, GatewayStatus } from '../../core/ports.ts';
import { CheckoutSessionSchema, statusOfSession, type StripeCheckoutSession } from './session.ts';

const EventSchema = v.looseObject({
  id: v.string(),
  type: v.string(),
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

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads a verified event.
 *
 * @param rawBody The body whose signature was verified.
 * @returns The notification for the core.
 * @throws ApiError invalid_request when the signed body is not an event.
 */
export function readStripeEvent(rawBody: Uint8Array): GatewayNotification {
  let value: unknown;
  try {
    value = JSON.parse(utf8.decode(rawBody));
  } catch {
    throw new ApiError('invalid_request', 'The notification body is not JSON.');
  }
  const event = v.safeParse(EventSchema, value);
  if (!event.success) throw new ApiError('invalid_request', 'The notification body is not a Stripe event.');
  const { id, type, data } = event.output;
  const statusOf = EVENT_STATUS[type];
  if (!statusOf) return { eventId: id, type, session: null };
  const session = v.safeParse(CheckoutSessionSchema, data.object);
  if (!session.success) throw new ApiError('invalid_request', `The ${type} event does not carry a checkout session.`);
  return { eventId: id, type, session: { id: session.output.id, status: statusOf(session.output) } };
}
