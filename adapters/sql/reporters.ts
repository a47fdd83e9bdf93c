/**
 * A table of bug reporters (migrations 30 and 40): one row per release and reporter, with its network and
 * the first and last time it reported. `bug_reporters` keeps reporters by address, `install_reporters` by
 * install id; the two are never mixed (docs/releases.md), so each has its table, and the two methods that
 * write and count it (`UsageStore` and `InstallStore` declare them alike) are written once for both.
 *
 * @module
 */
import type { ReporterCount, UsageStore } from '../../core/ports/usage-store.ts';
import type { SqlSession } from './client.ts';
import { fromEpochMs } from './time.ts';

/** The two tables and the column of each that names the reporter. */
type ReporterTable = { table: 'bug_reporters'; id: 'client_hash' } | { table: 'install_reporters'; id: 'install_hash' };

/**
 * The insert of a report ($1 release, $2 reporter, $3 network, $4 time; answers `first` when the reporter
 * is new to the release) and the count of reporters and their networks over a window ($1 release, $2 from,
 * $3 to, $4 the time before which a network's reporters no longer count, or null).
 */
function reporterStatements({ table, id }: ReporterTable): { add: string; count: string } {
  return {
    add: `
insert into ${table} as r (release, ${id}, network_hash, first_at, last_at)
values ($1::text, $2::text, $3::text, ${fromEpochMs('$4')}, ${fromEpochMs('$4')})
on conflict (release, ${id}) do update
  set first_at = least(r.first_at, excluded.first_at), last_at = greatest(r.last_at, excluded.last_at)
returning (xmax = 0) as first`,
    count: `
select count(*)::int as clients, count(distinct network_hash)::int as networks from ${table} r
where release = $1::text and first_at <= ${fromEpochMs('$3')} and last_at >= ${fromEpochMs('$2')}
  and ($4::float8 is null or not exists (
    select 1 from ${table} d
    where d.release = r.release and d.network_hash = r.network_hash and d.first_at < ${fromEpochMs('$4')}))`,
  };
}

/** `addReporter` and `reporters` over one of the tables. */
export function reporterMethods(db: SqlSession, table: ReporterTable): Pick<UsageStore, 'addReporter' | 'reporters'> {
  const { add, count } = reporterStatements(table);
  return {
    async addReporter({ release, clientHash, networkHash, at }) {
      const [row] = await db.write<{ first: boolean }>(add, [release, clientHash, networkHash, at]);
      return row?.first === true;
    },
    async reporters(release, from, to, discountedBefore) {
      const [row] = await db.query<ReporterCount>(count, [release, from, to, discountedBefore ?? null]);
      return row ?? { clients: 0, networks: 0 };
    },
  };
}
