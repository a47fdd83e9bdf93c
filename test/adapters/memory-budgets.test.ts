/**
 * Memory storage: a submission the budget admitted but the memory cap refused (503 storage_full) gives
 * its bytes back, so refused entries never use up the day's budget.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createMemoryStorage } from '../../adapters/memory/index.ts';
import { dayOf, feedbackBudgetBytes } from '../../core/budgets/budgets.ts';
import { ApiError } from '../../core/http/errors.ts';
import type { FeedbackEntry } from '../../core/ports/ports.ts';

const T0 = Date.UTC(2026, 10, 25, 12);
const entry = (i: number): FeedbackEntry => ({
  type: 'general',
  description: `entry ${String(i).padStart(4, '0')}`,
  email: null,
  appVersion: null,
  rating: null,
  receivedAt: T0,
});

test('entries refused by the memory cap leave the day budget as it was', async () => {
  // The cap holds two such entries (276 estimated bytes each); the day's budget four (266 budget bytes each).
  const storage = createMemoryStorage({ caps: { feedbackBytes: 2 * 276 } });
  const outcomes: string[] = [];
  for (let i = 0; i < 5; i++) {
    const e = entry(i);
    const budget = { client: `client-${i}`, day: dayOf(T0), bytes: feedbackBudgetBytes(e), perClient: 10_000, total: 4 * 266, sharePercent: 100 };
    try {
      const refusal = await storage.intake.addFeedback(e, budget);
      outcomes.push(refusal ? `refused: ${refusal.reason}, spent ${refusal.spent}` : 'stored');
    } catch (error) {
      outcomes.push(error instanceof ApiError ? error.code : String(error));
    }
  }
  assert.equal(outcomes, ['stored', 'stored', 'storage_full', 'storage_full', 'storage_full']);
});

test.run();
