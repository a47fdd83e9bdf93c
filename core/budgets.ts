/**
 * Storage budgets: how much feedback (bytes a day) and how many open checkout sessions the clients may
 * add, each client and all of them together, so that neither a durable storage's disk nor the memory
 * storage's caps can be filled by a few addresses. The rule is here once; the memory storage applies it
 * in JavaScript, the SQL storages in the statement that stores (migration 11), so that a batch of
 * feedback from several instances is judged against committed counts.
 *
 * @module
 */
import type { BudgetRefusal, FeedbackEntry } from './port-types.ts';

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

/** One budget as the rule reads it: a limit per client, a total, and the share. */
export interface BudgetLimits {
  perClient: number;
  total: number;
  sharePercent: number;
}

export const DAY_MS = 24 * 60 * 60 * 1000;

/** The UTC day of a time, as whole days since the epoch: the key of the daily counters. */
export function dayOf(now: number): number {
  return Math.floor(now / DAY_MS);
}

const encoder = new TextEncoder();

/**
 * What one feedback entry costs of the budget: 256 bytes for the row itself plus the UTF-8 bytes of its
 * texts (a 5,000-character description counts 5,256 to 15,256 bytes).
 */
export function feedbackBudgetBytes(entry: Pick<FeedbackEntry, 'description' | 'email' | 'appVersion'>): number {
  const bytes = (text: string | null) => (text === null ? 0 : encoder.encode(text).length);
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
