/**
 * Usage counts (core/budgets/usage.ts) in PostgreSQL and PGlite: one row per day and label set, added to by
 * each instance's batches (migration 12); the sightings and bug reporters behind the distinct counts
 * (migration 30).
 *
 * @module
 */
import type { UsageCount, UsageStore } from '../../core/ports/usage-store.ts';
import type { SqlSession } from './client.ts';
import { reporterMethods } from './reporters.ts';

const ADD = `
insert into usage_counts as u (day, kind, release, source, platform, count)
select x.day, x.kind, x.release, x.source, x.platform, x.count
from jsonb_to_recordset($1::text::jsonb) as x(day integer, kind text, release text, source text, platform text, count bigint)
order by 1, 2, 3, 4, 5
on conflict (day, kind, release, source, platform) do update set count = u.count + excluded.count`;

const LIST = `
select day, kind, release, source, platform, count::float8 as count from usage_counts
where day between $1::int and $2::int order by day, kind, release, source, platform`;

/**
 * One statement: the sightings not kept yet are kept and counted as installs. Of two instances adding the
 * same sighting at once, the second waits for the first and finds it kept: it is counted once.
 */
const ADD_SIGHTINGS = `
with input as (
  select distinct on (x.day, x.release, x."clientHash") x.day, x.release, x."clientHash" as client_hash, x.platform
  from jsonb_to_recordset($1::text::jsonb) as x(day integer, release text, "clientHash" text, platform text)
  order by x.day, x.release, x."clientHash"
), fresh as (
  insert into install_sightings (day, release, client_hash)
  select day, release, client_hash from input
  on conflict do nothing
  returning day, release, client_hash
), counted as (
  insert into usage_counts as u (day, kind, release, source, platform, count)
  select i.day, 'installed', i.release, 'none', i.platform, count(*)
  from fresh f join input i using (day, release, client_hash)
  group by 1, 2, 3, 4, 5
  order by 1, 2, 3, 4, 5
  on conflict (day, kind, release, source, platform) do update set count = u.count + excluded.count
)
select i.day, i.release, i.client_hash as "clientHash", i.platform
from fresh f join input i using (day, release, client_hash) order by 1, 2, 3`;

export function createSqlUsageStore(db: SqlSession): UsageStore {
  return {
    async add(counts) {
      if (counts.length > 0) await db.write(ADD, [JSON.stringify(counts)]);
    },
    list: (fromDay, toDay) => db.query<UsageCount>(LIST, [fromDay, toDay]),
    async addSightings(sightings) {
      if (sightings.length === 0) return [];
      const kept = sightings.map(({ day, release, clientHash, platform }) => ({ day, release, clientHash, platform }));
      return db.write(ADD_SIGHTINGS, [JSON.stringify(kept)]);
    },
    ...reporterMethods(db, { table: 'bug_reporters', id: 'client_hash' }),
  };
}
