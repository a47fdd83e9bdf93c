/**
 * The answers of a refused budget (core/budgets/budgets.ts): 429 with Retry-After, and a resolution that says
 * when retrying helps: at the end of the UTC day for the daily feedback budgets, when an open session
 * expires for the checkout sessions.
 *
 * @module
 */
import { type BudgetLimits, DAY_MS, dayOf, shareNow } from './budgets.ts';
import { ApiError } from '../http/errors.ts';
import type { BudgetRefusal } from '../ports/port-types.ts';

/** The Retry-After header of a wait until `at`: whole seconds, at least 1. */
export function retryAfter(now: number, at: number): Record<string, string> {
  return { 'retry-after': String(Math.max(1, Math.ceil((at - now) / 1000))) };
}

/**
 * The answer to feedback its budget refused.
 *
 * @param refusal Why, and the counts it was judged by.
 * @param limits The feedback budget.
 * @param bytes What the entry costs.
 * @param now The time of the request.
 */
export function feedbackRefused(refusal: BudgetRefusal, limits: BudgetLimits, bytes: number, now: number): ApiError {
  const resets = (dayOf(now) + 1) * DAY_MS;
  const resolution = `Retry after ${new Date(resets).toISOString()}, when the daily budget resets (Retry-After gives the seconds).`;
  const headers = retryAfter(now, resets);
  const { held, spent } = refusal;
  switch (refusal.reason) {
    case 'client':
      return new ApiError(
        'too_much_feedback',
        `This address sent ${held} bytes of feedback today (UTC); this entry's ${bytes} would pass its daily budget of ${limits.perClient} bytes.`,
        resolution,
        headers,
      );
    case 'share':
      return new ApiError(
        'too_much_feedback',
        `This address sent ${held} bytes of feedback today (UTC); with this entry's ${bytes} it would pass its share, ` +
          `${shareNow(limits, held, spent)} bytes (${limits.sharePercent}% of what the other clients left of the day's ${limits.total}).`,
        resolution,
        headers,
      );
    case 'total':
      return new ApiError(
        'budget_exhausted',
        `The server takes no more feedback today (UTC): ${spent} of the day's ${limits.total} bytes are used, and this entry counts ${bytes}. Nothing was stored.`,
        resolution,
        headers,
      );
  }
}
