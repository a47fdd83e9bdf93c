/**
 * Storage budgets: how much feedback (bytes a day) and how many open checkout sessions the clients may
 * add, each client and all of them together, so that neither a durable storage's disk nor the memory
 * storage's caps can be filled by a few addresses. The rule is here once (`refusalOf`, applied in order
 * by `DayLedger`): memory storage counts in the process; PostgreSQL under row locks of the day's
 * committed counts, so that instances on one database never pass a budget together; PGlite, the only
 * client of its data, per client in the process and the day's total with the rows.
 *
 * @module
 */
import type { BudgetLimits, BudgetRefusal, FeedbackBudget, FeedbackEntry } from '../ports/port-types.ts';

export type { BudgetLimits };

/** The limits an operator sets (config file fields of the same names; docs/deploy.md, "Storage budgets"). */
export interface Budgets {
  /** Feedback bytes (`feedbackBudgetBytes`) one client may add in a UTC day. */
  feedbackBytesPerClientPerDay: number;
  /** Feedback bytes all clients together may add in a UTC day. */
  feedbackBytesPerDay: number;
  /** Open (pending, unexpired) checkout sessions all clients together may hold. */
  openCheckouts: number;
  /**
   * The most one client that holds some already may hold, in percent of what the other clients left of
   * a total; a client that holds nothing may always add one while the total has room. 100 turns it off.
   */
  clientSharePercent: number;
}

export const DEFAULT_BUDGETS: Readonly<Budgets> = {
  feedbackBytesPerClientPerDay: 512 * 1024,
  feedbackBytesPerDay: 64 * 1024 * 1024,
  openCheckouts: 10_000,
  clientSharePercent: 1,
};

export const DAY_MS = 24 * 60 * 60 * 1000;

/** The UTC day of a time, as whole days since the epoch: the key of the daily counters. */
export function dayOf(now: number): number {
  return Math.floor(now / DAY_MS);
}

/** The UTF-8 length of a text, counted without encoding it (a lone surrogate counts 3, as its U+FFFD). */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 2; // a surrogate pair: 2 UTF-16 units, 4 bytes
      i++;
    } else bytes += 2;
  }
  return bytes;
}

/**
 * What one feedback entry costs of the budget: 256 bytes for the row itself plus the UTF-8 bytes of its
 * texts (a 5,000-character description counts 5,256 to 15,256 bytes).
 */
export function feedbackBudgetBytes(entry: Pick<FeedbackEntry, 'description' | 'email' | 'appVersion'>): number {
  const bytes = (text: string | null) => (text === null ? 0 : utf8Length(text));
  return 256 + bytes(entry.description) + bytes(entry.email) + bytes(entry.appVersion);
}

/**
 * Whether a client may add `adding` to a budget; the reason when not. `held` is what the client holds
 * now, `spent` what all clients hold (the client's included). Checked in this order: the client's own
 * limit, the total, then the share: a client that holds some already may not pass `sharePercent` of the
 * total less what the other clients hold. (One that holds nothing may add one, so a small total is never
 * shut to everyone by its share.)
 *
 * @returns null when it fits, else 'client', 'total' or 'share'.
 */
export function refusalOf(limits: BudgetLimits, held: number, spent: number, adding: number): BudgetRefusal['reason'] | null {
  if (held + adding > limits.perClient) return 'client';
  if (spent + adding > limits.total) return 'total';
  if (held > 0 && (held + adding) * 100 > limits.sharePercent * (limits.total - (spent - held))) return 'share';
  return null;
}

/** The largest share one client may hold now, in the budget's unit (for the refusal's message). */
export function shareNow(limits: BudgetLimits, held: number, spent: number): number {
  return Math.floor((limits.sharePercent * (limits.total - (spent - held))) / 100);
}

/**
 * One UTC day's feedback counts kept by a process: the memory storage's, and an exclusive SQL storage's
 * (PGlite: one process owns the data, so it counts per client in memory as it counts rate limits, and
 * keeps only the day's total with the rows). A later day starts from zero, or from a stored total.
 */
export class DayLedger {
  /** The UTC day counted; -Infinity before the first. */
  day = -Infinity;
  /** What all clients added on `day`. */
  spent = 0;
  readonly #held = new Map<string, number>();

  /** What each client counted added on `day`. */
  get held(): ReadonlyMap<string, number> {
    return this.#held;
  }

  /**
   * Starts counting `day` from `spent` and `held` (stored counts, or none), forgetting the clients of
   * the day before.
   */
  open(day: number, spent = 0, held: Iterable<readonly [string, number]> = []): void {
    this.day = day;
    this.spent = spent;
    this.#held.clear();
    for (const [client, amount] of held) this.#held.set(client, amount);
  }

  /** Judges one entry by `refusalOf` against the counts so far and counts it when it fits. */
  take(budget: FeedbackBudget): BudgetRefusal | null {
    if (budget.day > this.day) this.open(budget.day);
    const held = this.#held.get(budget.client) ?? 0;
    const reason = refusalOf(budget, held, this.spent, budget.bytes);
    if (reason) return { reason, held, spent: this.spent };
    this.#held.set(budget.client, held + budget.bytes);
    this.spent += budget.bytes;
    return null;
  }

  /** Takes back what `take` counted, when the entry could not be stored after all. */
  giveBack(budget: FeedbackBudget): void {
    if (budget.day !== this.day) return;
    const held = (this.#held.get(budget.client) ?? 0) - budget.bytes;
    if (held > 0) this.#held.set(budget.client, held);
    else this.#held.delete(budget.client);
    this.spent -= budget.bytes;
  }
}
