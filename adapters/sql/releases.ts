/**
 * Releases in PostgreSQL and PGlite (one row per version, newest first by the time it was published),
 * and the operator's audit trail.
 *
 * @module
 */
import type { AuditEntry, AuditStore } from '../../core/operator/context.ts';
import type { Release, ReleaseStore } from '../../core/releases.ts';
import type { SqlClient, SqlSession } from './client.ts';
import { reported } from './outbox.ts';
import { epochMs, fromEpochMs } from './time.ts';

const COLUMNS = `version, msi_url as "msiUrl", notes_url as "notesUrl", rollout_percent as "rolloutPercent",
  ${epochMs('published_at')} as "publishedAt", ${epochMs('pulled_at')} as "pulledAt"`;

const LIST = `select ${COLUMNS} from releases order by published_at desc, version desc`;
const PUBLISH = `insert into releases (version, msi_url, notes_url, rollout_percent, published_at)
values ($1::text, $2::text, $3::text, $4::int, ${fromEpochMs('$5')}) on conflict (version) do nothing returning version`;
const SET_ROLLOUT = `update releases set rollout_percent = $2::int where version = $1::text returning ${COLUMNS}`;
const PULL = `update releases set pulled_at = coalesce(pulled_at, ${fromEpochMs('$2')}) where version = $1::text returning ${COLUMNS}`;

/** Creates the release store over a database. */
export function createSqlReleaseStore(db: SqlClient): ReleaseStore {
  return {
    listReleases: () => db.query<Release>(LIST),
    async publishRelease(r, emit) {
      const params = [r.version, r.msiUrl, r.notesUrl, r.rolloutPercent, r.publishedAt];
      if (!emit) return (await db.write(PUBLISH, params)).length === 1;
      // The release and its release.published event commit together.
      return db.transaction(async (tx) => {
        if ((await tx.query(PUBLISH, params)).length === 0) return false;
        await reported(tx, { ...r, pulledAt: null }, emit);
        return true;
      });
    },
    async setRollout(version, rolloutPercent) {
      return (await db.write<Release>(SET_ROLLOUT, [version, rolloutPercent]))[0] ?? null;
    },
    async pullRelease(version, at) {
      return (await db.write<Release>(PULL, [version, at]))[0] ?? null;
    },
  };
}

const RECORD = `insert into audit (at, action, target, request_id) values (${fromEpochMs('$1')}, $2::text, $3::text, $4::text)`;
const LIST_AUDIT = `select ${epochMs('at')} as at, action, target, request_id as "requestId" from audit order by id desc limit $1::int`;

/** The audit trail over a database. */
export function createSqlAuditStore(db: SqlSession): AuditStore {
  return {
    async record(e) {
      await db.write(RECORD, [e.at, e.action, e.target, e.requestId]);
    },
    list: (limit) => db.query<AuditEntry>(LIST_AUDIT, [limit]),
  };
}
