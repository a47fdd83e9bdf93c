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
