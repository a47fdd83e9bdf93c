/**
 * An order as the operator API shows it: the session, the buyer, the keys and whether they stand.
 * Never served on the public port.
 *
 * @module
 */
import * as v from 'valibot';
import { isRevoked, revocationCause } from '../ports/order-state.ts';
import { CHECKOUT_CHANNELS, CHECKOUT_SKUS } from '../ports/port-types.ts';
import type { Order } from '../ports/store-ports.ts';
import { isoOrNull, IsoTime } from './json-views.ts';

const KeyState = v.picklist(['valid', 'revoked']);

/** The JSON of an order. */
export const OrderViewSchema = v.object({
  session: v.string(),
  product: v.picklist(CHECKOUT_SKUS),
  channel: v.nullable(v.picklist(CHECKOUT_CHANNELS)),
  state: v.picklist(['pending', 'processing', 'paid', 'expired', 'failed']),
  createdAt: IsoTime,
  paidAt: v.nullable(IsoTime),
  buyer: v.object({ email: v.nullable(v.string()), name: v.nullable(v.string()), country: v.nullable(v.string()) }),
  paymentRef: v.nullable(v.string()),
  amount: v.nullable(v.string()),
  currency: v.nullable(v.string()),
  licenses: v.pipe(v.picklist(['none', 'valid', 'revoked']), v.description('none: no keys issued yet.')),
  revokedBecause: v.nullable(v.picklist(['refund', 'dispute', 'operator'])),
  keys: v.array(v.object({ product: v.picklist(['standard', 'plus']), key: v.string(), state: KeyState })),
  refunded: v.boolean(),
  disputed: v.boolean(),
  disputeWon: v.boolean(),
  override: v.nullable(v.object({ action: v.picklist(['revoked', 'reinstated']), reason: v.nullable(v.string()), at: v.nullable(IsoTime) })),
});

export type OrderView = v.InferOutput<typeof OrderViewSchema>;

/** The JSON of an order. */
export function orderView(order: Order): OrderView {
  const { session, purchase, keys, standing } = order;
  const keyState: 'revoked' | 'valid' = isRevoked(standing) ? 'revoked' : 'valid';
  const listed = keys === null ? [] : (['standard', 'plus'] as const).flatMap((product) => {
    const key = keys[product];
    return key === null ? [] : [{ product, key, state: keyState }];
  });
  return {
    session: session.id,
    product: session.sku,
    channel: session.channel,
    state: session.state,
    createdAt: new Date(session.createdAt).toISOString(),
    paidAt: isoOrNull(order.paidAt),
    buyer: { email: purchase.email, name: purchase.name, country: purchase.country },
    paymentRef: purchase.paymentRef,
    amount: purchase.amount,
    currency: purchase.currency,
    licenses: keys === null ? 'none' : keyState,
    revokedBecause: revocationCause(standing),
    keys: listed,
    refunded: standing.refunded,
    disputed: standing.disputed,
    disputeWon: standing.disputeWon,
    override: standing.override === null ? null : { action: standing.override, reason: standing.overrideReason, at: isoOrNull(standing.overrideAt) },
  };
}
