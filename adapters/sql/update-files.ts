/**
 * The signed update files in PostgreSQL and PGlite (core/ports/update-files.ts): migration 37. A file is
 * stored by an insert that the primary key (channel, role, version) turns into nothing when that version
 * exists, so of two instances storing one version at once, one stores and the other is told to serve it.
 *
 * @module
 */
import { UPDATE_FILE_ROLES, type UpdateFile, type UpdateFileStore } from '../../core/ports/update-files.ts';
import type { SqlClient } from './client.ts';
import { epochMs, fromEpochMs } from './time.ts';

const COLUMNS = `channel, role, version, text, ${epochMs('stored_at')} as "storedAt", ${epochMs('expires_at')} as "expiresAt"`;
const GET = `select ${COLUMNS} from update_files where channel = $1::text and role = $2::text and version = $3::int`;
// The primary key's index, read backwards: one row.
const NEWEST = `select ${COLUMNS} from update_files where channel = $1::text and role = $2::text order by version desc limit 1`;
// Above the version given for the file's role: $2 to $5 are those of UPDATE_FILE_ROLES, in order (0: every version).
const ABOVE = `version > case role ${UPDATE_FILE_ROLES.map((role, i) => `when '${role}' then $${i + 2}::int`).join(' ')} end`;
const LIST = `select ${COLUMNS} from update_files where channel = $1::text and ${ABOVE} order by role, version`;
const LIST_SINCE = `select ${COLUMNS} from update_files where channel = $1::text and ${ABOVE} and stored_at >= ${
  fromEpochMs(`$${UPDATE_FILE_ROLES.length + 2}`)
} order by role, version`;
// Never replaced: a version stored first stays, and the losing insert returns no row.
const PUT = `insert into update_files (channel, role, version, text, stored_at, expires_at)
values ($1::text, $2::text, $3::int, $4::text, ${fromEpochMs('$5')}, ${fromEpochMs('$6')})
on conflict (channel, role, version) do nothing returning version`;
// Roots are never deleted, nor any role's newest file.
const PRUNE = `with pruned as (
  delete from update_files f
  where f.channel = $1::text and f.role <> 'root' and f.stored_at < ${fromEpochMs('$2')}
    and f.version < (select max(n.version) from update_files n where n.channel = f.channel and n.role = f.role)
  returning 1
)
select count(*)::int as count from pruned`;

/** Creates the update file store over a database. */
export function createSqlUpdateFiles(db: SqlClient): UpdateFileStore {
  return {
    getUpdateFile: async (channel, role, version) => (await db.query<UpdateFile>(GET, [channel, role, version]))[0] ?? null,
    newestUpdateFile: async (channel, role) => (await db.query<UpdateFile>(NEWEST, [channel, role]))[0] ?? null,
    listUpdateFiles: (channel, since, above = {}) => {
      const versions = UPDATE_FILE_ROLES.map((role) => above[role] ?? 0);
      return since === undefined ? db.query<UpdateFile>(LIST, [channel, ...versions]) : db.query<UpdateFile>(LIST_SINCE, [channel, ...versions, since]);
    },
    putUpdateFile: async (file) => (await db.write(PUT, [file.channel, file.role, file.version, file.text, file.storedAt, file.expiresAt])).length === 1,
    pruneUpdateFiles: async (channel, before) => (await db.write<{ count: number }>(PRUNE, [channel, before]))[0]?.count ?? 0,
  };
}
