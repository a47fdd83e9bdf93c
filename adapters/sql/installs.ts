/**
 * Installs by install id (core/ports/install-store.ts) in PostgreSQL and PGlite (migration 40): the
 * counts per day, channel and release; the pings and per-client tallies behind them, kept for today and
 * yesterday; each release's reporting installs.
 *
 * @module
 */
import type { InstallCount, InstallStore } from '../../core/ports/install-store.ts';
import type { SqlSession } from './client.ts';
import { reporterMethods } from './reporters.ts';

/**
 * One statement: a ping not kept yet takes one of its client's places for the version and day (while fewer
 * than the cap are taken), is kept, and is counted. Of the same ping sent twice at once, the second waits
 * for the first's rows and keeps nothing: it is counted once (it may have taken a second place of its
 * client, which only lowers that client's cap for the day).
 */
const ADD_INSTALL = `
with fresh as (
  select not exists (
    select 1 from install_pings where day = $1::int and release = $3::text and install_hash = $4::text
  ) as fresh
), place as (
  insert into install_clients as c (day, release, client_hash, installs)
  select $1::int, $3::text, $5::text, 1 from fresh where fresh and $6::int > 0
  on conflict (day, release, client_hash) do update set installs = c.installs + 1 where c.installs < $6::int
  returning 1
), kept as (
  insert into install_pings (day, release, install_hash)
  select $1::int, $3::text, $4::text from place
  on conflict do nothing
  returning 1
), counted as (
  insert into install_counts as n (day, channel, release, count)
  select $1::int, $2::text, $3::text, 1 from kept
  on conflict (day, channel, release) do update set count = n.count + 1
)
select count(*)::int as counted from kept`;

const LIST = `
select day, channel, release, count::float8 as count from install_counts
where day between $1::int and $2::int order by day, channel collate "C", release collate "C"`;

export function createSqlInstallStore(db: SqlSession): InstallStore {
  return {
    async addInstall({ day, channel, release, installHash, clientHash }, perClient) {
      const [row] = await db.write<{ counted: number }>(ADD_INSTALL, [day, channel, release, installHash, clientHash, perClient]);
      return row?.counted === 1;
    },
    list: (fromDay, toDay) => db.query<InstallCount>(LIST, [fromDay, toDay]),
    ...reporterMethods(db, { table: 'install_reporters', id: 'install_hash' }),
  };
}
