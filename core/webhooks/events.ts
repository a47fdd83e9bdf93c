/**
 * The events the service reports, built from what changed: one function per event type, so that every
 * storage sends the same body for the same change.
 *
 * @module
 */
import type { Purchase } from '../ports/gateway-port.ts';
import { isRevoked, type OrderStanding, revocationCause } from '../ports/order-state.ts';
import type { CheckoutSession, FeedbackEntry, LicenseKeys } from '../ports/port-types.ts';
import type { Order } from '../ports/store-ports.ts';
import type { EventDraft } from '../ports/events.ts';

/** feedback.received for a stored entry (SQL storages build the same bytes in adapters/sql/records.ts). */
export function feedbackReceived(entry: FeedbackEntry, id: number): EventDraft {
  return {
    type: 'feedback.received',
    data: {
      id,
      type: entry.type,
      description: entry.description,
      email: entry.email,
      appVersion: entry.appVersion,
      rating: entry.rating,
      receivedAt: new Date(entry.receivedAt).toISOString(),
    },
  };
}

/** order.paid: the session, its product, the buyer as far as known, and the keys just stored. */
export function orderPaid(session: CheckoutSession, keys: LicenseKeys, buyer: Purchase | null): EventDraft {
  return {
    type: 'order.paid',
    data: {
      session: session.id,
      product: session.sku,
      channel: session.channel,
      buyer: { email: buyer?.email ?? null, name: buyer?.name ?? null, country: buyer?.country ?? null },
      amount: buyer?.amount ?? null,
      currency: buyer?.currency ?? null,
      keys: { standard: keys.standard, plus: keys.plus },
    },
  };
}

/**
 * license.revoked or license.reinstated when an order's verdict changed (a refund, a dispute, the
 * operator), else null: the event says what the licenses are now, and why.
 */
export function licenseVerdict(before: OrderStanding, order: Order, why: string): EventDraft | null {
  const revoked = isRevoked(order.standing);
  if (revoked === isRevoked(before)) return null;
  return {
    type: revoked ? 'license.revoked' : 'license.reinstated',
    data: {
      session: order.session.id,
      product: order.session.sku,
      buyer: { email: order.purchase.email, name: order.purchase.name, country: order.purchase.country },
      keys: { standard: order.keys?.standard ?? null, plus: order.keys?.plus ?? null },
      cause: revocationCause(order.standing),
      why,
    },
  };
}
