/**
 * GET /stats over a year reads the raw tables a month at a time (core/operator/day-spans.ts): on 1M
 * feedback entries in PostgreSQL one 365-day count took 1.8-2.2 s, past the 1 s statement timeout (500),
 * and a 31-day one 0.2 s. The spans each read are recorded here; the figures are those of the whole range.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DAY_MS, dayOf } from '../../core/budgets/budgets.ts';
import { bodyJson, coreRequest, createTestApp } from '../_setup.ts';

const TOKEN = 'stats-spans-0123456789'.padEnd(40, 's');

test('a 365-day GET /stats reads spans of at most 31 days, end to end, and counts every entry once', async () => {
  const t = await createTestApp({ operatorToken: TOKEN });
  const today = dayOf(t.clock.now());
  // One review on each of 40 days spread over the year, the first on the range's first day.
  const days = Array.from({ length: 40 }, (_, i) => today - 364 + i * 9);
  for (const day of days) {
    await t.storage.intake.addFeedback({
      type: 'review',
      description: `day ${day}`,
      email: null,
      appVersion: null,
      rating: 5,
      receivedAt: day * DAY_MS + 3_600_000,
    });
  }
  const spans: [string, number, number][] = [];
  const inbox = t.storage.inbox;
  const { countByDay, countByVersion } = inbox;
  inbox.countByDay = (from, to) => (spans.push(['feedback', from, to]), countByDay(from, to));
  inbox.countByVersion = (from, to, versions) => (spans.push(['versions', from, to]), countByVersion(from, to, versions));
  const orders = t.storage.orders;
  const ordersByDay = orders.countByDay;
  orders.countByDay = (from, to) => (spans.push(['orders', from, to]), ordersByDay(from, to));

  const answer = await t.app.operator!.handle(coreRequest({ path: '/stats', query: 'days=365', headers: { authorization: `Bearer ${TOKEN}` } }));
  assert.is(answer.status, 200);
  const stats = bodyJson(answer) as { feedback: { total: number; days: { day: string; count: number }[] } };
  assert.is(stats.feedback.total, 40);
  assert.is(stats.feedback.days.length, 365);
  assert.is(stats.feedback.days.filter((d) => d.count === 1).length, 40);
  for (const read of ['feedback', 'versions', 'orders']) {
    const mine = spans.filter(([name]) => name === read).map(([, from, to]) => [from, to] as const);
    assert.is(mine[0]![0], today - 364, `${read} starts at the range's first day`);
    assert.is(mine.at(-1)![1], today, `${read} ends today`);
    for (const [i, [from, to]] of mine.entries()) {
      assert.ok(to - from + 1 <= 31, `${read} span ${from}-${to} is at most 31 days`);
      if (i > 0) assert.is(from, mine[i - 1]![1] + 1, `${read} spans follow each other`);
    }
    assert.is(mine.length, 12);
  }
});

test.run();
