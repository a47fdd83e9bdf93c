/**
 * Contract: a budgeted feedback write is judged and counted with its insert, in arrival order, also when
 * many arrive at once (one batch on SQL); the day's counts start again the next day; open checkout
 * totals count only pending, unexpired sessions.
 */
import * as assert from './assert.ts';
import { dayOf, feedbackBudgetBytes } from '../../core/budgets/budgets.ts';
import type { FeedbackBudget, FeedbackEntry } from '../../core/ports/ports.ts';
import { type ContractSuite, current } from './context.ts';

const T0 = Date.UTC(2026, 10, 21, 12);
const HOUR = 60 * 60 * 1000;

const entry = (i: number, at = T0): FeedbackEntry => ({
  type: 'general',
  description: `entry ${String(i).padStart(3, '0')}`,
  email: null,
  appVersion: null,
  rating: null,
  receivedAt: at,
});

const budget = (client: string, e: FeedbackEntry, limits: Partial<FeedbackBudget> = {}): FeedbackBudget => ({
  client,
  day: dayOf(e.receivedAt),
  bytes: feedbackBudgetBytes(e),
  perClient: 10 * 265,
  total: 1_000_000,
  sharePercent: 100,
  ...limits,
});

export function budgetsContract(test: ContractSuite): void {
  test('40 entries of one client at once: the first 10 in arrival order are stored, 30 refused with the counts', async (context) => {
    const { storage } = current(context);
    const entries = Array.from({ length: 40 }, (_, i) => entry(i));
    assert.is(feedbackBudgetBytes(entries[0]!), 265, "the budget's size of an entry: feedbackBudgetBytes()");
    const answers = await Promise.all(entries.map((e) => storage.intake.addFeedback(e, budget('client-a', e))));
    assert.equal(answers.slice(0, 10), Array(10).fill(null), 'the first 10 of one client in arrival order are stored: addFeedback() answers 1-10');
    assert.equal(
      answers.slice(10),
      Array(30).fill({ reason: 'client', held: 2650, spent: 2650 }),
      "the rest are refused with the client's counts: addFeedback() answers 11-40",
    );
    const read = (await storage.inbox.list({ limit: 100 })).map((f) => f.description).reverse();
    assert.equal(read, entries.slice(0, 10).map((e) => e.description), 'the stored ones are the first 10 in arrival order: inbox.list() oldest first');
  });

  test('the total and the share judge each entry against those before it; a new day starts from zero', async (context) => {
    const { storage } = current(context);
    const limits = { perClient: 1_000_000, total: 4 * 265, sharePercent: 40 };
    const first = [entry(1), entry(2), entry(3)];
    // a: 265 fits 40% of 1,060; a second of a's (530) does not; b fits 40% of what a left (795).
    const answers = await Promise.all([
      storage.intake.addFeedback(first[0]!, budget('a', first[0]!, limits)),
      storage.intake.addFeedback(first[1]!, budget('a', first[1]!, limits)),
      storage.intake.addFeedback(first[2]!, budget('b', first[2]!, limits)),
    ]);
    assert.equal(
      answers,
      [null, { reason: 'share', held: 265, spent: 265 }, null],
      'the share judges each entry against those before it: addFeedback() answers',
    );
    // Without the share, the total alone: c and d fill it to the byte, e is refused.
    const unshared = { ...limits, sharePercent: 100 };
    for (const [i, client] of ['c', 'd', 'e'].entries()) {
      const e = entry(10 + i);
      assert.equal(
        await storage.intake.addFeedback(e, budget(client, e, unshared)),
        i < 2 ? null : { reason: 'total', held: 0, spent: 1060 },
        'the total judges each entry against those before it: addFeedback()',
      );
    }
    const tomorrow = entry(20, T0 + 12 * HOUR);
    assert.equal(await storage.intake.addFeedback(tomorrow, budget('e', tomorrow, unshared)), null, 'a new UTC day starts from zero: addFeedback()');
    assert.is((await storage.inbox.list({ limit: 100 })).length, 5, 'every stored entry is listed: inbox.list() length');
  });

  test('open checkout totals count pending, unexpired sessions, up to the limit, with the earliest expiry', async (context) => {
    const { storage } = current(context);
    const session = (id: string, expiresAt: number) => ({
      id,
      sku: 'standard' as const,
      channel: null,
      url: `https://pay.example/${id}`,
      state: 'pending' as const,
      createdAt: T0,
      expiresAt,
    });
    assert.equal(await storage.checkouts.openCheckoutTotals(T0, 10), { open: 0, earliestExpiry: null }, 'no session, none open: openCheckoutTotals()');
    await storage.checkouts.createCheckout(session('s1', T0 + 3 * HOUR), 'a');
    await storage.checkouts.createCheckout(session('s2', T0 + 2 * HOUR), 'b');
    await storage.checkouts.createCheckout(session('s3', T0 + 4 * HOUR));
    await storage.checkouts.createCheckout(session('s4', T0 + HOUR), 'c');
    await storage.checkouts.advanceCheckout('s4', 'paid');
    assert.equal(
      await storage.checkouts.openCheckoutTotals(T0, 10),
      { open: 3, earliestExpiry: T0 + 2 * HOUR },
      'pending, unexpired sessions of every owner count, with the earliest expiry: openCheckoutTotals()',
    );
    assert.equal(await storage.checkouts.openCheckoutTotals(T0, 2), { open: 2, earliestExpiry: T0 + 2 * HOUR }, 'at most the limit: openCheckoutTotals()');
    assert.equal(
      await storage.checkouts.openCheckoutTotals(T0 + 2 * HOUR, 10),
      { open: 2, earliestExpiry: T0 + 3 * HOUR },
      'an expired session does not count: openCheckoutTotals() later',
    );
  });
}
