/**
 * The checkout state machine: pending -> processing -> paid, and pending or processing -> expired or failed.
 *
 * @module
 */
import type { CheckoutState } from './ports.ts';

const FINAL: ReadonlySet<CheckoutState> = new Set(['paid', 'expired', 'failed']);

/** Whether a state can never change again. */
export function isFinal(state: CheckoutState): boolean {
  return FINAL.has(state);
}

/**
 * The state a session moves to when `wanted` is reported: a final state never changes, and processing
 * never goes back to pending (a stale report must not undo a newer one).
 *
 * @param current The stored state.
 * @param wanted The reported state.
 * @returns The state to store.
 */
export function nextCheckoutState(current: CheckoutState, wanted: CheckoutState): CheckoutState {
  if (isFinal(current)) return current;
  if (current === 'processing' && wanted === 'pending') return current;
  return wanted;
}

/**
 * How long a session that never paid is kept after it expires, by every storage's retention: 7 days,
 * so a late status poll still hears session_expired rather than unknown_session.
 */
export const UNPAID_SESSION_GRACE_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Whether retention may delete a session: it never paid (pending, expired or failed) and expired more
 * than `graceMs` ago. Processing sessions stay (a payment may still land), paid ones stay with their keys.
 */
export function isRetired(session: { state: CheckoutState; expiresAt: number }, now: number, graceMs = UNPAID_SESSION_GRACE_MS): boolean {
  return session.state !== 'processing' && session.state !== 'paid' && session.expiresAt < now - graceMs;
}
