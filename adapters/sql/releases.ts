/**
 * Releases in PostgreSQL and PGlite (one row per version, newest first by the time it was published).
 *
 * @module
 */
import type { Release, ReleaseStore } from '../../core/releases/release-view.ts';
import { publishedRelease } from '../../core/ports/release-store.ts';
import type { SqlClient, SqlValue } from './client.ts';
import { epochMs, fromEpochMs } from './time.ts';

const COLUMNS = `version, msi_url as "msiUrl", notes_url as "notesUrl", channel, rollout_basis_points as "rolloutBasisPoints",
  ${epochMs('published_at')} as "publishedAt", ${epochMs('pulled_at')} as "pulledAt",
  sha256, size::float8 as size, critical, ramp, ${epochMs('halted_at')} as "haltedAt", halt_reason as "haltReason",
  announced_step as "announcedStep"`;

const LIST = `select ${COLUMNS} from releases order by published_at desc, version desc`;
const PUBLISH = `insert into releases (version, msi_url, notes_url, rollout_basis_points, published_at, sha256, size, critical, ramp, channel)
values ($1::text, $2::text, $3::text, $4::int, ${fromEpochMs('$5')}, $6::text, $7::bigint, $8::boolean, $9::text::jsonb, $10::text)
on conflict (version) do nothing returning version`;
// Without a plan ($3 null) the plan ends; with one it replaces the plan, none of whose steps is announced yet.
const SET_ROLLOUT = `update releases set rollout_basis_points = $2::int, ramp = $3::text::jsonb,
  announced_step = case when $3::text is null then announced_step else 0 end, halted_at = null, halt_reason = null
where version = $1::text and pulled_at is null returning ${COLUMNS}`;
const PROMOTE = `update releases set channel = $2::text where version = $1::text and pulled_at is null returning ${COLUMNS}`;
const PULL = `update releases set pulled_at = coalesce(pulled_at, ${fromEpochMs('$2')}),
  rollout_basis_points = coalesce($3::int, rollout_basis_points), ramp = case when $3::int is null then ramp end
where version = $1::text returning ${COLUMNS}`;
const RESTORE = `update releases set pulled_at = null, halted_at = null, halt_reason = null where version = $1::text returning ${COLUMNS}`;
const HALT = `update releases set halted_at = ${fromEpochMs('$2')}, halt_reason = $3::text
where version = $1::text and ramp is not null and pulled_at is null and halted_at is null returning ${COLUMNS}`;
const RESUME = `update releases set ramp = $2::text::jsonb, halted_at = null, halt_reason = null
where version = $1::text and halted_at is not null and pulled_at is null returning ${COLUMNS}`;
// Conditional: of two instances announcing a step at once, one changes the row (and writes the event).
const ANNOUNCE_STEP = `update releases set announced_step = $2::int
where version = $1::text and pulled_at is null and ramp = $3::text::jsonb and announced_step < $2::int returning ${COLUMNS}`;

/** Creates the release store over a database (or over a change's transaction: change.ts). */
export function createSqlReleaseStore(db: SqlClient): ReleaseStore {
  /** One change of one release: the release afterwards, or null when the statement's condition did not hold. */
  const change = async (statement: string, params: readonly SqlValue[]): Promise<Release | null> => (await db.write<Release>(statement, params))[0] ?? null;
  return {
    listReleases: () => db.query<Release>(LIST),
    async publishRelease(release) {
      // The columns of pulled_at, halted_at, halt_reason and announced_step start as the rule's values.
      const r = publishedRelease(release);
      const params = [
        r.version,
        r.msiUrl,
        r.notesUrl,
        r.rolloutBasisPoints,
        r.publishedAt,
        r.sha256,
        r.size,
        r.critical,
        r.ramp && JSON.stringify(r.ramp),
        r.channel,
      ];
      return (await db.write(PUBLISH, params)).length === 1;
    },
    setRollout: (version, rolloutBasisPoints, ramp) => change(SET_ROLLOUT, [version, rolloutBasisPoints, ramp === undefined ? null : JSON.stringify(ramp)]),
    promoteRelease: (version, channel) => change(PROMOTE, [version, channel]),
    pullRelease: (version, at, rolloutBasisPoints) => change(PULL, [version, at, rolloutBasisPoints ?? null]),
    restoreRelease: (version) => change(RESTORE, [version]),
    haltRelease: (version, at, reason) => change(HALT, [version, at, reason]),
    resumeRelease: (version, ramp) => change(RESUME, [version, JSON.stringify(ramp)]),
    announceStep: (version, step, ramp) => change(ANNOUNCE_STEP, [version, step, JSON.stringify(ramp)]),
  };
}
