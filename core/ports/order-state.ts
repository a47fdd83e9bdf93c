/**
 * Whether an order's licenses stand: a function of what the provider said of its payment (refunded,
 * disputed, dispute won: flags that are only ever set, so any order of delivery ends the same) and of
 * the operator's last word, which stands until the provider's verdict changes.
 *
 * @module
 */
import type { PaymentFlag } from './gateway-port.ts';

export type { PaymentFlag };

/** An operator's revoke or reinstate of an order's licenses. */
export type OrderOverride = 'revoked' | 'reinstated';

/** What decides whether an order's licenses stand. */
export interface OrderStanding {
  /** The payment was refunded in full. */
  refunded: boolean;
  /** The payment was disputed (a chargeback or an inquiry). */
  disputed: boolean;
  /** The seller won the dispute. */
  disputeWon: boolean;
  /** The operator's revoke or reinstate, or null. */
  override: OrderOverride | null;
  overrideReason: string | null;
  /** When the operator made it, ms since the epoch. */
  overrideAt: number | null;
}

/** A paid order with no refund, no dispute and no operator action. */
export const GOOD_STANDING: OrderStanding = Object.freeze({
  refunded: false,
  disputed: false,
  disputeWon: false,
  override: null,
  overrideReason: null,
  overrideAt: null,
});

/** Whether the provider's word alone revokes: a full refund, or a dispute not won. */
export function providerRevokes(s: OrderStanding): boolean {
  return s.refunded || (s.disputed && !s.disputeWon);
}

/** Whether the order's licenses are revoked: the operator's word if given, else the provider's. */
export function isRevoked(s: OrderStanding): boolean {
  return s.override === null ? providerRevokes(s) : s.override === 'revoked';
}

/** Why an order's licenses are revoked, or null when they stand. */
export function revocationCause(s: OrderStanding): 'refund' | 'dispute' | 'operator' | null {
  if (!isRevoked(s)) return null;
  if (s.override === 'revoked') return 'operator';
  return s.refunded ? 'refund' : 'dispute';
}

/** What each dispute of a payment came to, by the provider's dispute id ('' when it gives none). */
export type DisputeStates = Readonly<Record<string, 'open' | 'won'>>;

/**
 * The standing and dispute states after a provider event, whatever the order events come in: a refund
 * is only ever set; each dispute is open until won, and its events in any order end won when one says
 * so; the order counts as disputed while any dispute is not won, so a new dispute after a won one
 * revokes again. An operator's override is dropped when the provider's verdict changes.
 *
 * @param s The stored standing.
 * @param disputes The stored dispute states (empty for an order stored before they were kept).
 * @param flag What the event says.
 * @param dispute The provider's id of the dispute, if it gives one.
 */
export function withPaymentEvent(
  s: OrderStanding,
  disputes: DisputeStates,
  flag: PaymentFlag,
  dispute = '',
): { standing: OrderStanding; disputes: DisputeStates } {
  if (flag === 'refunded') return { standing: withPaymentFlag(s, flag), disputes };
  // An order flagged before dispute ids were kept: its one dispute, without an id.
  const known: Record<string, 'open' | 'won'> = Object.keys(disputes).length === 0 && s.disputed ? { '': s.disputeWon ? 'won' : 'open' } : { ...disputes };
  known[dispute] = known[dispute] === 'won' || flag === 'dispute_won' ? 'won' : 'open';
  const states = Object.values(known);
  const next = { ...s, disputed: true, disputeWon: states.every((state) => state === 'won') };
  if (next.disputeWon === s.disputeWon && s.disputed) return { standing: s, disputes: known };
  if (providerRevokes(next) === providerRevokes(s)) return { standing: next, disputes: known };
  return { standing: { ...next, override: null, overrideReason: null, overrideAt: null }, disputes: known };
}

/**
 * The standing after a provider event. Flags are only set (a won dispute was a dispute), so the flags
 * are the union of the events seen, in whatever order they came. An operator's override is dropped
 * when the provider's verdict changes: the newer fact wins.
 *
 * @param s The stored standing.
 * @param flag What the event says.
 * @returns The standing to store (the same object when nothing changes).
 */
export function withPaymentFlag(s: OrderStanding, flag: PaymentFlag): OrderStanding {
  const next = {
    ...s,
    refunded: s.refunded || flag === 'refunded',
    disputed: s.disputed || flag !== 'refunded',
    disputeWon: s.disputeWon || flag === 'dispute_won',
  };
  if (next.refunded === s.refunded && next.disputed === s.disputed && next.disputeWon === s.disputeWon) return s;
  if (providerRevokes(next) === providerRevokes(s)) return next;
  return { ...next, override: null, overrideReason: null, overrideAt: null };
}
