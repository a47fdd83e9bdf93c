/**
 * Usage counts (core/budgets/usage.ts) in PostgreSQL and PGlite: one row per day and label set, added to by
 * each instance's batches (migration 12).
 *
 * @module
 */
import type { UsageCount, UsageStore } from '../../core/budgets/usage.ts';
import type { SqlSession } from './client.ts';

const ADD = `
insert into usage_counts as u (day, kind, release, source, platform, count)
select x.day, x.kind, x.release, x.source, x.platform, x.count
from jsonb_to_recordset($1::text::jsonb) as x(day integer, kind text, release text, source text, platform text, count bigint)
order by 1, 2, 3, 4, 5
on conflict (day, kind, release, source, platform) do update set count = u.count + excluded.count`;

const LIST = `
select day, kind, release, source, platform, count::float8 as count from usage_counts
where day between $1::int and $2::int order by day, kind, release, source, platform`;

export function createSqlUsageStore(db: SqlSession): UsageStore {
  return {
    async add(counts) {
      if (counts.length > 0) await db.write(ADD, [JSON.stringify(counts)]);
    },
    list: (fromDay, toDay) => db.query<UsageCount>(LIST, [fromDay, toDay]),
  };
}
