/**
 * The cap on open checkout sessions per client: each session opened is a write at the payment provider
 * (Stripe's live mode allows about 100 a second for a whole account), so one client may hold only so
 * many sessions that are pending and unexpired. On one instance a client's creates run one at a time,
 * so the cap is exact there; N instances admit at most N - 1 more in a race.
 *
 * @module
 */
import type { AppContext } from './context.ts';
import { ApiError } from './errors.ts';

/** Open (pending, unexpired) sessions one client may hold by default. */
export const DEFAULT_OPEN_CHECKOUTS_PER_CLIENT = 10;

/**
 * Creates the gate of POST checkout/create.
 *
 * @param context The app: its storage, clock, and `openCheckoutsPerClient`.
 * @returns `admit(owner, open)`: runs `open` (the provider call and the stored session) once the client is
 *   under its cap, one at a time per client; throws 429 too_many_checkouts, with Retry-After, otherwise.
 */
export function createCheckoutGate(context: AppContext): <T>(owner: string, open: () => Promise<T>) => Promise<T> {
  const cap = context.openCheckoutsPerClient;
  /** The last create queued per client on this instance; an entry leaves when its queue empties. */
  const queues = new Map<string, Promise<unknown>>();

  const admitted = async <T>(owner: string, open: () => Promise<T>): Promise<T> => {
    const now = context.clock.now();
    const expiries = await context.storage.openCheckouts(owner, now, cap);
    if (expiries.length >= cap) {
      const seconds = Math.max(1, Math.ceil((expiries[0]! - now) / 1000));
      const at = new Date(expiries[0]!).toISOString();
      throw new ApiError(
        'too_many_checkouts',
        `This address has ${cap} unpaid checkout sessions open, the most it may hold at once.`,
        `Pay with a checkout session already opened, or retry after ${at}, when the oldest one expires (Retry-After gives the seconds).`,
        { 'retry-after': String(seconds) },
      );
    }
    return open();
  };

  return (owner, open) => {
    const previous = queues.get(owner) ?? Promise.resolve();
    const next = previous.then(
      () => admitted(owner, open),
      () => admitted(owner, open),
    );
    queues.set(owner, next);
    const release = () => {
      if (queues.get(owner) === next) queues.delete(owner);
    };
    next.then(release, release);
    return next;
  };
}
