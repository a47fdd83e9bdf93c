/**
 * `converter-site-api stats [--days N]`: downloads, update checks and feedback by day and release, through
 * the operator API (docs/operating.md). Tables for people, `--json` for scripts.
 *
 * @module
 */
import { type Command, type Io, parseCommandLine, UsageError } from './command.ts';
import type * as v from 'valibot';
import { getStats, type StatsSchema } from '../../core/operator/stats.ts';
import { OPERATOR_EXIT_CODES, prepare, printCall, table } from './operator-api.ts';

const HELP = `usage: converter-site-api stats [--days <1-365>] [--json]

Downloads (GET /download), update checks (GET /version), paid orders and feedback per UTC day over the last days (30 by
default, today included), then by release, source, platform, feedback type and rating; through the operator
API of a running server (OPERATOR_URL and OPERATOR_TOKEN).

${OPERATOR_EXIT_CODES}`;

type Stats = v.InferOutput<typeof StatsSchema>;

const breakdown = (title: string, counts: Readonly<Record<string, number | string>> | undefined): string[] => {
  const entries = Object.entries(counts ?? {});
  return entries.length === 0 ? [] : [`${title}: ${entries.map(([name, count]) => `${name} ${count}`).join(', ')}`];
};

function render(stats: Stats): string {
  const days = table([
    ['DAY', 'DOWNLOADS', 'UPDATE CHECKS', 'ORDERS', 'FEEDBACK'],
    ...stats.downloads.days.map((d, i) => [
      d.day,
      String(d.count),
      String(stats.updateChecks.days[i]!.count),
      String(stats.orders.days[i]!.count),
      String(stats.feedback.days[i]!.count),
    ]),
    ['TOTAL', String(stats.downloads.total), String(stats.updateChecks.total), String(stats.orders.total), String(stats.feedback.total)],
  ]);
  const lines = [
    ...breakdown('downloads by release', stats.downloads.release),
    ...breakdown('downloads by source', stats.downloads.source),
    ...breakdown('downloads by platform', stats.downloads.platform),
    ...breakdown('update checks by release', stats.updateChecks.release),
    ...breakdown('orders by product', stats.orders.product),
    ...breakdown('revenue', stats.orders.revenue),
    ...(stats.orders.refunded + stats.orders.disputed > 0
      ? breakdown('of these orders', { refunded: stats.orders.refunded, disputed: stats.orders.disputed })
      : []),
    ...(stats.orders.refunded + stats.orders.disputed > 0 ? breakdown('revenue net of refunds and disputes', stats.orders.netRevenue) : []),
    ...breakdown('feedback by type', stats.feedback.type),
    ...breakdown('feedback by rating', stats.feedback.rating),
    // Shown once someone was told: most ranges have none.
    ...(stats.requestersTold > 0 ? [`requesters told their request shipped: ${stats.requestersTold}`] : []),
  ];
  return `${days}\n${lines.map((line) => `${line}\n`).join('')}`;
}

export const stats: Command = {
  name: 'stats',
  summary: 'downloads, update checks and feedback by day (operator API)',
  help: HELP,
  async run(args, io: Io) {
    const { values, positionals } = parseCommandLine(args, { json: { type: 'boolean' }, days: { type: 'string' } }, 0);
    if (positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}`);
    const days = values.days ?? '30';
    if (!/^\d{1,3}$/.test(days) || Number(days) < 1 || Number(days) > 365) {
      throw new UsageError(`--days must be a whole number from 1 to 365, not ${JSON.stringify(days)}`);
    }
    return printCall('stats', prepare(getStats, { query: { days } }), values.json === true, io, render);
  },
};
