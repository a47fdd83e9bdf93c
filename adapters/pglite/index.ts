/**
 * Storage on PGlite (Postgres compiled to WebAssembly) in a data directory: durable data on one machine
 * with no database server, running exactly the SQL and migrations of the Postgres adapter.
 *
 * @module
 */
import { PGlite } from '@electric-sql/pglite';
import type { SqlClient } from '../sql/client.ts';
import type { MigrationReport } from '../sql/migrate.ts';
import { openSqlStorage, type SqlStorage, type SqlStorageOptions } from '../sql/storage.ts';
import { type DiskReserve, diskReserveCheck } from './disk-reserve.ts';
import { wrapPglite } from './wrap.ts';

export { DEFAULT_DISK_RESERVE_BYTES, type DiskReserve } from './disk-reserve.ts';

/** Where the data lives. */
export interface PgliteOptions {
  /** The data directory (DATA_DIR); in memory when omitted. One process at a time may open it. */
  dataDir?: string;
  /** The schema of every table; "public" by default. */
  schema?: string;
  /**
   * Refuse writes (503 storage_full) while the data directory's disk has less free space than this, and
   * say not ready; none when omitted. See disk-reserve.ts for why PGlite needs it.
   */
  diskReserve?: DiskReserve;
}

/**
 * Postgres settings for one small process, on top of PGlite's own. Postgres sizes shared_buffers for a
 * server (128 MB); inside the process those pages are WebAssembly memory the process keeps for good, and
 * the tables here are small and read by key (the operating system caches the files anyway). See
 * docs/performance.md for what each setting saved.
 */
export const PGLITE_SETTINGS: Readonly<Record<string, string>> = {
  shared_buffers: '8MB',
};

/** PGlite's start parameters with PGLITE_SETTINGS added. */
export function pgliteStartParams(): string[] {
  return [...PGlite.defaultStartParams, ...Object.entries(PGLITE_SETTINGS).flatMap(([name, value]) => ['-c', `${name}=${value}`])];
}

/**
 * Opens a PGlite database. PGlite is one connection: its statements run one at a time, in call order.
 *
 * @param options Where the data lives.
 */
export async function createPgliteClient(options: PgliteOptions = {}): Promise<SqlClient> {
  const startParams = pgliteStartParams();
  const db = await PGlite.create(options.dataDir === undefined ? { startParams } : { dataDir: options.dataDir, startParams });
  const check = options.diskReserve ? diskReserveCheck(options.diskReserve) : undefined;
  return wrapPglite(db, options.schema ?? 'public', true, check);
}

/**
 * Opens the PGlite storage: opens the data directory, migrates, and builds the storage. It is the
 * database's only client (see `exclusive` in SqlStorageOptions) unless `exclusive` says otherwise.
 *
 * @param options Data directory, batching and retention settings.
 * @returns The storage and what the migration did.
 */
export async function openPgliteStorage(
  options: PgliteOptions & SqlStorageOptions = {},
): Promise<{ storage: SqlStorage; migration: MigrationReport }> {
  // Readiness asks the same reserve the client's writes meet.
  const writable = options.diskReserve ? { checkWritable: diskReserveCheck(options.diskReserve) } : {};
  return openSqlStorage(await createPgliteClient(options), { exclusive: {}, ...writable, ...options });
}
