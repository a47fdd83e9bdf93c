/**
 * The numbers the owner asks for, over the last `days` UTC days (today included): downloads and update
 * checks by day, release, source and platform; paid orders by day and product, and their revenue per
 * currency (orders paid before amounts were kept are counted, not summed), the refunds and disputes among
 * them and the revenue net of those (counted on the day of the payment); feedback by day, type and rating. Every day of the range
 * is listed, zeros included, so that a chart needs no gap filling.
 *
 * @module
 */
import * as v from 'valibot';
import { addDecimals } from '../formats/decimal.ts';
import type { OrderCount } from '../ports/store-ports.ts';
import { DAY_MS, dayOf } from '../budgets/budgets.ts';
import type { UsageCount, UsageKind } from '../budgets/usage.ts';
import { readInSpans } from './day-spans.ts';
import { defineOperation } from './operation.ts';
import { knownVersions, newestVersion, versionStats, VersionStatsSchema } from './version-stats.ts';

export const StatsQuerySchema = v.strictObject({
  days: v.optional(v.pipe(v.string(), v.regex(/^\d{1,3}$/, 'must be a whole number'), v.transform(Number), v.minValue(1), v.maxValue(365)), '30'),
});

const isoDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** Counts summed per value of `label`, largest first. */
function tally<T>(rows: readonly T[], label: (row: T) => string, count: (row: T) => number): Record<string, number> {
  const sums = new Map<string, number>();
  for (const row of rows) sums.set(label(row), (sums.get(label(row)) ?? 0) + count(row));
  return Object.fromEntries([...sums].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));
}

function series<T extends { day: number; count: number }>(rows: readonly T[], fromDay: number, toDay: number) {
  const byDay = new Map<number, number>();
  for (const row of rows) byDay.set(row.day, (byDay.get(row.day) ?? 0) + row.count);
  const days: { day: string; count: number }[] = [];
  for (let day = fromDay; day <= toDay; day++) days.push({ day: isoDay(day), count: byDay.get(day) ?? 0 });
  return days;
}

function usageOf(rows: readonly UsageCount[], kind: UsageKind, fromDay: number, toDay: number) {
  const of = rows.filter((row) => row.kind === kind);
  return {
    total: of.reduce((sum, row) => sum + row.count, 0),
    days: series(of, fromDay, toDay),
    release: tally(of, (row) => row.release, (row) => row.count),
    ...(kind === 'download' ? { source: tally(of, (row) => row.source, (row) => row.count) } : {}),
    platform: tally(of, (row) => row.platform, (row) => row.count),
  };
}

/**
 * What the paid orders brought, exactly, per currency ("USD": "113.00"); orders of unknown amount are left
 * out. `net`: what they kept, without the orders refunded in full or with a dispute not won.
 */
function revenueOf(rows: readonly OrderCount[], net = false): Record<string, string> {
  const sums: Record<string, string> = {};
  for (const row of rows) {
    const amount = net ? row.netRevenue : row.revenue;
    if (row.currency === null || amount === null) continue;
    sums[row.currency] = sums[row.currency] === undefined ? amount : addDecimals(sums[row.currency]!, amount);
  }
  return sums;
}

const Counts = v.record(v.string(), v.number());
const DaySeries = v.array(v.object({ day: v.pipe(v.string(), v.description('YYYY-MM-DD, UTC')), count: v.number() }));
const UsageSchema = v.object({ total: v.number(), days: DaySeries, release: Counts, source: v.optional(Counts), platform: Counts });

/** GET /stats: the numbers of the last `days` UTC days. */
export const StatsSchema = v.object({
  from: v.string(),
  to: v.string(),
  downloads: UsageSchema,
  updateChecks: UsageSchema,
  orders: v.object({
    total: v.number(),
    days: DaySeries,
    product: Counts,
    revenue: v.record(v.string(), v.string()),
    /** Of the orders paid in the range, those refunded in full and those disputed (won, open or lost). */
    refunded: v.number(),
    disputed: v.number(),
    /** The revenue they kept: without the orders refunded in full or with a dispute not won. */
    netRevenue: v.record(v.string(), v.string()),
  }),
  feedback: v.object({ total: v.number(), days: DaySeries, type: Counts, rating: Counts }),
  versions: VersionStatsSchema,
  /** Mails written in the range: sent, given up after the retries (failed), not sent yet (pending; all of them while mail is off). */
  mail: v.object({ sent: v.number(), failed: v.number(), pending: v.number() }),
  /** Requesters told in the range that their linked request shipped (core/mail/shipped-requests.ts). */
  requestersTold: v.number(),
});

export const getStats = defineOperation({
  operationId: 'getStats',
  method: 'GET',
  path: '/stats',
  summary: 'Downloads and update checks by day, release, source and platform, feedback by day, type and rating, ' +
    'and by version: update checks by installed version (by address) and installs by install id (apps on the update files), ' +
    'the share on the newest release in each, reviews and bug reports, ' +
    'mails sent, failed and pending, and requesters told their request shipped, ' +
    'over the last `days` UTC days (1-365, 30 by default), today included.',
  query: StatsQuerySchema,
  output: StatsSchema,
  status: 200,
  errors: ['invalid_query'],
  async run(context, { query: { days } }) {
    const toDay = dayOf(context.clock.now());
    const fromDay = toDay - days + 1;
    // This instance's counts of the last seconds first, so that the numbers include them.
    await context.usage.flush();
    const [releases, baseline] = await Promise.all([context.storage.releases.listReleases(), context.releases.baseline()]);
    const [usage, installIds, feedback, orders, byVersion, mail, requestersTold] = await Promise.all([
      context.storage.usage.list(fromDay, toDay),
      context.storage.installs.list(fromDay, toDay),
      // The raw tables, a month at a time (day-spans.ts); the usage counters are one row per day already.
      readInSpans(fromDay, toDay, (from, to) => context.storage.inbox.countByDay(from, to)),
      readInSpans(fromDay, toDay, (from, to) => context.storage.orders.countByDay(from, to)),
      readInSpans(fromDay, toDay, (from, to) => context.storage.inbox.countByVersion(from, to, knownVersions(releases, baseline.version))),
      context.storage.mail.counts(fromDay * DAY_MS, (toDay + 1) * DAY_MS),
      context.storage.shipping.toldCount(fromDay * DAY_MS, (toDay + 1) * DAY_MS),
    ]);
    return {
      from: isoDay(fromDay),
      to: isoDay(toDay),
      downloads: usageOf(usage, 'download', fromDay, toDay),
      updateChecks: usageOf(usage, 'update_check', fromDay, toDay),
      orders: {
        total: orders.reduce((sum, row) => sum + row.count, 0),
        days: series(orders, fromDay, toDay),
        product: tally(orders, (row) => row.product, (row) => row.count),
        revenue: revenueOf(orders),
        refunded: orders.reduce((sum, row) => sum + row.refunded, 0),
        disputed: orders.reduce((sum, row) => sum + row.disputed, 0),
        netRevenue: revenueOf(orders, true),
      },
      feedback: {
        total: feedback.reduce((sum, row) => sum + row.count, 0),
        days: series(feedback, fromDay, toDay),
        type: tally(feedback, (row) => row.type, (row) => row.count),
        rating: tally(feedback, (row) => (row.rating === null ? 'none' : String(row.rating)), (row) => row.count),
      },
      versions: versionStats(usage, installIds, byVersion, newestVersion(releases, baseline.version), fromDay, toDay),
      mail,
      requestersTold,
    };
  },
});
