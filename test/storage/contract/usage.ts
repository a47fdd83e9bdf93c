/**
 * Contract: usage counts add up per day and label set; feedback is counted by UTC day, type and rating.
 */
import * as assert from 'uvu/assert';
import type { FeedbackEntry } from '../../../core/ports/ports.ts';
import { DAY_MS } from '../../../core/budgets/budgets.ts';
import type { UsageCount } from '../../../core/budgets/usage.ts';
import { current, type ContractSuite } from './context.ts';

const DAY = 20_417; // 2025-11-25
const count = (over: Partial<UsageCount>): UsageCount => ({ day: DAY, kind: 'download', release: '2.5.0', source: 'none', platform: 'windows', count: 1, ...over });
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
    ]);
    assert.equal(await usage.list(DAY + 2, DAY + 4), []);
  });

  test('feedback is counted by UTC day, type and rating', async (context) => {
    const { storage } = current(context);
    const start = DAY * DAY_MS;
    await storage.addFeedback(entry(start));
    await storage.addFeedback(entry(start + DAY_MS - 1));
    await storage.addFeedback(entry(start + 10, { rating: 2 }));
    await storage.addFeedback(entry(start + 20, { type: 'bug_report', rating: null }));
    await storage.addFeedback(entry(start + DAY_MS));
    await storage.addFeedback(entry(start - 1));
    assert.equal(await storage.inbox.countByDay(DAY, DAY), [
      { day: DAY, type: 'bug_report', rating: null, count: 1 },
      { day: DAY, type: 'review', rating: 2, count: 1 },
      { day: DAY, type: 'review', rating: 5, count: 2 },
    ]);
    assert.equal((await storage.inbox.countByDay(DAY - 1, DAY + 1)).map((c) => [c.day, c.count]), [
      [DAY - 1, 1],
      [DAY, 1],
      [DAY, 1],
      [DAY, 2],
      [DAY + 1, 1],
    ]);
  });

  test('paid orders are counted by the UTC day they were fulfilled, product and currency, with their exact sum', async (context) => {
    const { storage } = current(context);
    const start = DAY * DAY_MS;
    const paid = async (id: string, sku: 'standard' | 'plus_bundle', at: number | null, amount: string | null = null, currency: string | null = null) => {
      const buyer = { email: null, name: null, country: null, paymentRef: null, amount, currency };
      await storage.createCheckout({ id, sku, channel: null, url: `https://pay.example.com/${id}`, state: 'pending', createdAt: start - DAY_MS, expiresAt: start + 9 * DAY_MS });
      if (at === null) return;
      await storage.advanceCheckout(id, 'paid');
      await storage.orders.recordPurchase(id, buyer, at);
    };
    await paid('cs_u1', 'standard', start + 5, '49.00', 'USD');
    await paid('cs_u2', 'standard', start + DAY_MS - 1, '49.5', 'USD');
    await paid('cs_u3', 'plus_bundle', start + 7, '64.00', 'USD');
    await paid('cs_u4', 'standard', start + DAY_MS);
    await paid('cs_u5', 'standard', null);
    await paid('cs_u6', 'standard', start + 9, '5000', 'JPY');
    const none = { refunded: 0, disputed: 0 };
    assert.equal(await storage.orders.countByDay(DAY, DAY + 1), [
      { day: DAY, product: 'plus_bundle', currency: 'USD', count: 1, revenue: '64.00', ...none, netRevenue: '64.00' },
      { day: DAY, product: 'standard', currency: 'JPY', count: 1, revenue: '5000', ...none, netRevenue: '5000' },
      { day: DAY, product: 'standard', currency: 'USD', count: 2, revenue: '98.50', ...none, netRevenue: '98.50' },
      { day: DAY + 1, product: 'standard', currency: null, count: 1, revenue: null, ...none, netRevenue: null },
    ]);
    // Refunds and disputes count on the day of their payment; what they took back is not net revenue.
    await storage.orders.flag('cs_u1', 'refunded');
    await storage.orders.flag('cs_u6', 'disputed');
    await storage.orders.flag('cs_u3', 'disputed');
    await storage.orders.flag('cs_u3', 'dispute_won');
    assert.equal(await storage.orders.countByDay(DAY, DAY), [
      { day: DAY, product: 'plus_bundle', currency: 'USD', count: 1, revenue: '64.00', refunded: 0, disputed: 1, netRevenue: '64.00' },
      { day: DAY, product: 'standard', currency: 'JPY', count: 1, revenue: '5000', refunded: 0, disputed: 1, netRevenue: '0' },
      { day: DAY, product: 'standard', currency: 'USD', count: 2, revenue: '98.50', refunded: 1, disputed: 0, netRevenue: '49.50' },
    ]);
    assert.equal(await storage.orders.countByDay(DAY + 2, DAY + 3), []);
  });
}
