/**
 * The caps on open checkout sessions: each session opened is a write at the payment provider (Stripe's
 * live mode allows about 100 a second for a whole account) and a stored row, so one client may hold only
 * so many sessions that are pending and unexpired, all clients together `budgets.openCheckouts`, and no
 * client more than its share of what the others left (core/budgets/budgets.ts). On one instance a client's
 * creates run one at a time, so its own cap is exact there; N instances admit at most N - 1 more in a
 * race, and the total may be passed by the creates of other clients in flight when it is reached.
 *
 * @module
 */
import { retryAfter } from './budget-refusals.ts';
import { type BudgetLimits, type Budgets, refusalOf, shareNow } from './budgets.ts';
import { ApiError } from '../http/errors.ts';
import type { Clock, Storage } from '../ports/ports.ts';

/** What the gate reads: the open sessions in storage, the clock, the caps. */
export interface CheckoutCapContext {
  readonly storage: { readonly checkouts: Pick<Storage['checkouts'], 'openCheckouts' | 'openCheckoutTotals'> };
  readonly clock: Clock;
  readonly openCheckoutsPerClient: number;
  readonly budgets: Pick<Budgets, 'openCheckouts' | 'clientSharePercent'>;
}

/** Open (pending, unexpired) sessions one client may hold by default. */
export const DEFAULT_OPEN_CHECKOUTS_PER_CLIENT = 10;

/**
 * Creates the gate of POST checkout/create.
 *
 * @param context The app: its storage, clock, and `openCheckoutsPerClient`.
 * @returns `admit(owner, open)`: runs `open` (the provider call and the stored session) once the client is
 *   under its cap, one at a time per client; throws 429 too_many_checkouts, with Retry-After, otherwise.
 */
export function createCheckoutGate(context: CheckoutCapContext): <T>(owner: string, open: () => Promise<T>) => Promise<T> {
  const cap = context.openCheckoutsPerClient;
  /** The last create queued per client on this instance; an entry leaves when its queue empties. */
  const queues = new Map<string, Promise<unknown>>();

  const limits: BudgetLimits = { perClient: cap, total: context.budgets.openCheckouts, sharePercent: context.budgets.clientSharePercent };

  const admitted = async <T>(owner: string, open: () => Promise<T>): Promise<T> => {
    const now = context.clock.now();
    const expiries = await context.storage.checkouts.openCheckouts(owner, now, cap);
    const firstOwn = expiries[0];
    const payOrWait = (at: number) =>
      `Pay with a checkout session already opened, or retry after ${new Date(at).toISOString()}, when the oldest one expires (Retry-After gives the seconds).`;
    if (firstOwn !== undefined && expiries.length >= cap) {
      throw new ApiError(
        'too_many_checkouts',
        `This address has ${cap} unpaid checkout sessions open, the most it may hold at once.`,
        payOrWait(firstOwn),
        retryAfter(now, firstOwn),
      );
    }
    const totals = await context.storage.checkouts.openCheckoutTotals(now, limits.total);
    const refusal = refusalOf(limits, expiries.length, totals.open, 1);
    if (refusal === null) return open();
    // The total, or this client's share of it, is taken: the first open session frees a place when it
    // expires at the latest (a total reached with none open is only a total of 0).
    const first = totals.earliestExpiry ?? now + 60_000;
    const anyExpires = `Retry after ${new Date(first).toISOString()}, when the first open checkout session of any client expires ` +
      `(one paid sooner frees a place sooner; Retry-After gives the seconds).`;
    if (refusal === 'total') {
      throw new ApiError(
        'budget_exhausted',
        `The server holds the most open checkout sessions it may (${limits.total}); no session was opened.`,
        anyExpires,
        retryAfter(now, first),
      );
    }
    throw new ApiError(
      'too_many_checkouts',
      `This address has ${expiries.length} unpaid checkout sessions open; its share now is ${shareNow(limits, expiries.length, totals.open)}: ` +
        `${limits.sharePercent}% of what the other clients left of the server's ${limits.total}.`,
      firstOwn === undefined ? anyExpires : payOrWait(firstOwn),
      retryAfter(now, firstOwn ?? first),
    );
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
