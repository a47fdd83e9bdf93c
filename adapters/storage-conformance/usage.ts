/**
 * Contract: usage counts add up per day and label set; feedback is counted by UTC day, type and rating.
 */
import * as assert from './assert.ts';
import type { FeedbackEntry } from '../../core/ports/ports.ts';
import { DAY_MS } from '../../core/budgets/budgets.ts';
import type { UsageCount } from '../../core/budgets/usage.ts';
import { type ContractSuite, current } from './context.ts';

const DAY = 20_417; // 2025-11-25
const count = (over: Partial<UsageCount>): UsageCount => ({
  day: DAY,
  kind: 'download',
  release: '2.5.0',
  source: 'none',
  platform: 'windows',
  count: 1,
  ...over,
});
const entry = (receivedAt: number, over: Partial<FeedbackEntry> = {}): FeedbackEntry => ({
  type: 'review',
  description: 'ok',
  email: null,
  appVersion: null,
  rating: 5,
  receivedAt,
  ...over,
});

export function usageContract(test: ContractSuite): void {
  test('usage counts add up per day and label set, and are listed by day range', async (context) => {
    const { usage } = current(context).storage;
    await usage.add([count({ count: 3 }), count({ kind: 'update_check', release: '2.6.0', count: 5 })]);
    await usage.add([count({ count: 4 }), count({ day: DAY + 1, source: 'blog', platform: 'other' }), count({ day: DAY + 5 })]);
    await usage.add([]);
    assert.equal(await usage.list(DAY, DAY + 1), [
      count({ count: 7 }),
      count({ kind: 'update_check', release: '2.6.0', count: 5 }),
      count({ day: DAY + 1, source: 'blog', platform: 'other' }),
    ], 'usage counts sum per day and label set, by day, then kind, release, source and platform: list()');
    assert.equal(await usage.list(DAY + 2, DAY + 4), [], 'days with no counts list none: list()');
  });

  test('a sighting of a client, version and day is kept and counted as an install once, also when added at once twice', async (context) => {
    const { usage } = current(context).storage;
    const seen = (clientHash: string, release = '2.6.0', day = DAY, platform: 'windows' | 'other' = 'windows') => ({ day, release, clientHash, platform });
    assert.equal(
      await usage.addSightings([seen('a'), seen('b', '2.6.0', DAY, 'other'), seen('a')]),
      [seen('a'), seen('b', '2.6.0', DAY, 'other')],
      'a sighting is kept once, a repeat in the batch is not returned: addSightings()',
    );
    const [first, second] = await Promise.all([
      usage.addSightings([seen('a'), seen('c'), seen('d')]),
      usage.addSightings([seen('c'), seen('d'), seen('a', '2.5.0')]),
    ]);
    assert.equal(
      [...first!, ...second!].map((s) => `${s.release}/${s.clientHash}`).sort(),
      ['2.5.0/a', '2.6.0/c', '2.6.0/d'],
      'two batches at once keep each sighting once: addSightings() [release/client]',
    );
    assert.equal(await usage.addSightings([seen('a', '2.6.0', DAY + 1)]), [seen('a', '2.6.0', DAY + 1)], 'another day is another sighting: addSightings()');
    assert.equal(await usage.addSightings([]), [], 'an empty batch keeps nothing: addSightings()');
    const installs = (await usage.list(DAY, DAY + 1)).filter((c) => c.kind === 'installed').map((c) => [c.day, c.release, c.platform, c.count]);
    assert.equal(
      installs,
      [[DAY, '2.5.0', 'windows', 1], [DAY, '2.6.0', 'other', 1], [DAY, '2.6.0', 'windows', 3], [DAY + 1, '2.6.0', 'windows', 1]],
      'one install per sighting kept, by day, then release and platform: list() installed [day, release, platform, count]',
    );
  });

  test('bug reporters count once per client and release, with their networks, by the time of their reports', async (context) => {
    const { usage } = current(context).storage;
    const T = DAY * 86_400_000;
    const report = (clientHash: string, networkHash: string, at: number, release = '2.6.0') => usage.addReporter({ release, clientHash, networkHash, at });
    assert.equal([await report('a', 'n1', T), await report('a', 'n1', T + 50), await report('b', 'n1', T + 10), await report('c', 'n2', T + 100)], [
      true,
      false,
      true,
      true,
    ], "a client's first report of a release is true, a later one false: addReporter()");
    assert.ok(await report('a', 'n1', T + 5, '2.5.0'), 'another release: another reporter');
    assert.equal(
      await usage.reporters('2.6.0', T, T + 100),
      { clients: 3, networks: 2 },
      'distinct clients and networks that reported in the range: reporters()',
    );
    // Reported only before `from` (b, at T + 10) or only after `to` (c, at T + 100): not counted.
    assert.equal(
      await usage.reporters('2.6.0', T + 20, T + 99),
      { clients: 1, networks: 1 },
      'a client counts when its first report is at or before `to` and its latest at or after `from`: reporters()',
    );
    assert.equal(await usage.reporters('2.6.0', T + 101, T + 200), { clients: 0, networks: 0 }, 'no report in the range, none counted: reporters()');
    assert.equal(await usage.reporters('2.4.0', T, T + 100), { clients: 0, networks: 0 }, "another release's reports do not count: reporters()");
  });

  test('bug reporters after a resume: a network of which a client reported before it counts no more, with all its clients', async (context) => {
    const { usage } = current(context).storage;
    const T = DAY * 86_400_000;
    const report = (clientHash: string, networkHash: string, at: number) => usage.addReporter({ release: '2.6.0', clientHash, networkHash, at });
    // Before the resume at T + 100: a and b of n1, c of n2. After it: a again, d of n1, e of n3, f of n4.
    for (
      const [client, network, at] of [['a', 'n1', T], ['b', 'n1', T + 10], ['c', 'n2', T + 20], ['a', 'n1', T + 150], ['d', 'n1', T + 160], [
        'e',
        'n3',
        T + 170,
      ], ['f', 'n4', T + 180]] as const
    ) {
      await report(client, network, at);
    }
    await usage.addReporter({ release: '2.5.0', clientHash: 'g', networkHash: 'n3', at: T });
    assert.equal(await usage.reporters('2.6.0', T + 100, T + 200), { clients: 4, networks: 3 }, 'without the discount: a, d, e, f of n1, n3, n4');
    assert.equal(
      await usage.reporters('2.6.0', T + 100, T + 200, T + 100),
      { clients: 2, networks: 2 },
      'n1 reported before the resume: its clients a and d count no more; n3 reported only another release before it',
    );
    assert.equal(await usage.reporters('2.6.0', T + 100, T + 200, T + 175), { clients: 1, networks: 1 }, 'a later resume: only f of n4 is new');
    assert.equal(await usage.reporters('2.6.0', T, T + 200, T), { clients: 6, networks: 4 }, 'nothing reported before T');
  });

  test('feedback is counted by UTC day, type and rating', async (context) => {
    const { storage } = current(context);
    const start = DAY * DAY_MS;
    await storage.intake.addFeedback(entry(start));
    await storage.intake.addFeedback(entry(start + DAY_MS - 1));
    await storage.intake.addFeedback(entry(start + 10, { rating: 2 }));
    await storage.intake.addFeedback(entry(start + 20, { type: 'bug_report', rating: null }));
    await storage.intake.addFeedback(entry(start + DAY_MS));
    await storage.intake.addFeedback(entry(start - 1));
    const rule = 'feedback counts by UTC day, then type, then rating with no rating first';
    assert.equal(await storage.inbox.countByDay(DAY, DAY), [
      { day: DAY, type: 'bug_report', rating: null, count: 1 },
      { day: DAY, type: 'review', rating: 2, count: 1 },
      { day: DAY, type: 'review', rating: 5, count: 2 },
    ], `${rule}: countByDay()`);
    assert.equal((await storage.inbox.countByDay(DAY - 1, DAY + 1)).map((c) => [c.day, c.count]), [
      [DAY - 1, 1],
      [DAY, 1],
      [DAY, 1],
      [DAY, 2],
      [DAY + 1, 1],
    ], `${rule}, both days included: countByDay() [day, count]`);
  });

  test('paid orders are counted by the UTC day they were fulfilled, product and currency, with their exact sum', async (context) => {
    const { storage } = current(context);
    const start = DAY * DAY_MS;
    const paid = async (id: string, sku: 'standard' | 'plus_bundle', at: number | null, amount: string | null = null, currency: string | null = null) => {
      const buyer = { email: null, name: null, country: null, paymentRef: null, amount, currency };
      await storage.checkouts.createCheckout({
        id,
        sku,
        channel: null,
        url: `https://pay.example.com/${id}`,
        state: 'pending',
        createdAt: start - DAY_MS,
        expiresAt: start + 9 * DAY_MS,
      });
      if (at === null) return;
      await storage.checkouts.advanceCheckout(id, 'paid');
      await storage.orders.recordPurchase(id, buyer, at);
    };
    await paid('cs_u1', 'standard', start + 5, '49.00', 'USD');
    await paid('cs_u2', 'standard', start + DAY_MS - 1, '49.5', 'USD');
    await paid('cs_u3', 'plus_bundle', start + 7, '64.00', 'USD');
    await paid('cs_u4', 'standard', start + DAY_MS);
    await paid('cs_u5', 'standard', null);
    await paid('cs_u6', 'standard', start + 9, '5000', 'JPY');
    const none = { refunded: 0, disputed: 0 };
    const rule = 'paid orders count by UTC day of fulfilment, then product, then currency with the unknown first';
    assert.equal(await storage.orders.countByDay(DAY, DAY + 1), [
      { day: DAY, product: 'plus_bundle', currency: 'USD', count: 1, revenue: '64.00', ...none, netRevenue: '64.00' },
      { day: DAY, product: 'standard', currency: 'JPY', count: 1, revenue: '5000', ...none, netRevenue: '5000' },
      { day: DAY, product: 'standard', currency: 'USD', count: 2, revenue: '98.50', ...none, netRevenue: '98.50' },
      { day: DAY + 1, product: 'standard', currency: null, count: 1, revenue: null, ...none, netRevenue: null },
    ], `${rule}: countByDay()`);
    // Refunds and disputes count on the day of their payment; what they took back is not net revenue.
    await storage.change((tx) => tx.orders.flag('cs_u1', 'refunded'));
    await storage.change((tx) => tx.orders.flag('cs_u6', 'disputed'));
    await storage.change((tx) => tx.orders.flag('cs_u3', 'disputed'));
    await storage.change((tx) => tx.orders.flag('cs_u3', 'dispute_won'));
    assert.equal(await storage.orders.countByDay(DAY, DAY), [
      { day: DAY, product: 'plus_bundle', currency: 'USD', count: 1, revenue: '64.00', refunded: 0, disputed: 1, netRevenue: '64.00' },
      { day: DAY, product: 'standard', currency: 'JPY', count: 1, revenue: '5000', refunded: 0, disputed: 1, netRevenue: '0' },
      { day: DAY, product: 'standard', currency: 'USD', count: 2, revenue: '98.50', refunded: 1, disputed: 0, netRevenue: '49.50' },
    ], `${rule}; refunds and disputes on the day of their payment: countByDay()`);
    assert.equal(await storage.orders.countByDay(DAY + 2, DAY + 3), [], 'days with no paid order list none: countByDay()');
  });
}
