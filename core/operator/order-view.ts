/**
 * An order as the operator API shows it: the session, the buyer, the keys and whether they stand.
 * Never served on the public port.
 *
 * @module
 */
import { isRevoked, revocationCause } from '../order-state.ts';
import type { Order } from '../store-ports.ts';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The JSON of an order. */
export function orderView(order: Order) {
  const { session, purchase, keys, standing } = order;
  const revoked = isRevoked(standing);
  const keyState = revoked ? 'revoked' : 'valid';
  const listed = keys === null ? [] : (['standard', 'plus'] as const).flatMap((product) => (keys[product] === null ? [] : [{ product, key: keys[product], state: keyState }]));
  return {
    session: session.id,
    product: session.sku,
    channel: session.channel,
    state: session.state,
    createdAt: iso(session.createdAt),
    paidAt: iso(order.paidAt),
    buyer: { email: purchase.email, name: purchase.name, country: purchase.country },
    paymentRef: purchase.paymentRef,
    amount: purchase.amount,
    currency: purchase.currency,
    /** none: no keys issued yet; valid; revoked. */
    licenses: keys === null ? 'none' : keyState,
    revokedBecause: revocationCause(standing),
    keys: listed,
    refunded: standing.refunded,
    disputed: standing.disputed,
    disputeWon: standing.disputeWon,
    override: standing.override === null ? null : { action: standing.override, reason: standing.overrideReason, at: iso(standing.overrideAt) },
  };
}

export type OrderView = ReturnType<typeof orderView>;
