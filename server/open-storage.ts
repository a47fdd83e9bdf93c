/**
 * Opens the configured storage: memory, PGlite in a data directory, or Postgres. The two SQL storages
 * are migrated on open and clean up after themselves in the background. Each driver is imported only
 * when chosen, so a server on memory storage never loads PGlite's WebAssembly or postgres.js.
 *
 * @module
 */
import { createMemoryStorage } from '../adapters/memory/index.ts';
import { type ExportSource, memoryExportSource } from '../adapters/export/source.ts';
import type { MigrationReport } from '../adapters/sql/migrate.ts';
import type { Clock, Logger, Storage } from '../core/ports/ports.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { freeBytesOf } from './disk-space.ts';
import { DEFAULT_DISK_RESERVE_BYTES } from '../adapters/pglite/disk-reserve.ts';
import { compileWasmBaselineOnly, initPgliteDataDir } from './pglite-init.ts';
import { preparePrivateDataDir, tighten } from './private-data-dir.ts';
import type { StorageSettings } from './storage-config.ts';

/** An open storage with its export. */
export type OpenedStorage = Storage & ExportSource & { close(): Promise<void> };

/** Where the data of each kind lives, for logs. */
export function describeStorage(settings: StorageSettings): Record<string, string> {
  if (settings.kind === 'pglite') return { storage: 'pglite', dataDir: settings.dataDir };
  if (settings.kind === 'postgres') {
    const url = new URL(settings.url);
    return { storage: 'postgres', database: `${url.host}${url.pathname}`, schema: settings.schema };
  }
  return { storage: 'memory' };
}

function logMigration(logger: Logger, report: MigrationReport): void {
  if (report.applied.length > 0) logger.info('database migrated', { ...report });
  if (report.version > report.latest) {
    logger.warn('the database schema is newer than this code; running on it (migrations only add)', { ...report });
  }
}

/**
 * Opens the storage.
 *
 * @param settings Which storage.
 * @param options.logger Where migrations and retention passes are logged.
 * @param options.clock The clock of the rate-limit windows in memory (memory and PGlite; Postgres uses the database's).
 * @param options.background Whether retention runs in the background (the server: yes; commands: no).
 * @param options.eventRetentionDays EVENT_RETENTION_DAYS: how long outbound events are kept once done.
 */
export async function openStorage(
  settings: StorageSettings,
  options: { logger: Logger; clock?: Clock; background?: boolean; eventRetentionDays?: number },
): Promise<OpenedStorage> {
  const { logger } = options;
  const days = options.eventRetentionDays === undefined ? {} : { eventRetentionDays: options.eventRetentionDays };
  const retention = options.background === false ? {} : { retention: { logger, ...days } };
  // Rate-limit keys are hashed with node:crypto's HMAC (Deno and Bun have it too), switches logged.
  const sql = { ...retention, logger };
  if (settings.kind === 'memory') {
    const storage = createMemoryStorage(options.clock ? { clock: options.clock } : {});
    return { ...storage, ...memoryExportSource(storage), close: async () => {} };
  }
  if (settings.kind === 'pglite') {
    preparePrivateDataDir(settings.dataDir);
    const unlock = lockDataDir(settings.dataDir);
    try {
      await initPgliteDataDir(settings.dataDir);
      compileWasmBaselineOnly();
      const { openPgliteStorage } = await import('../adapters/pglite/index.ts');
      const exclusive = options.clock ? { clock: options.clock } : {};
      const diskReserve = { freeBytes: freeBytesOf(settings.dataDir, logger), reserveBytes: settings.diskReserveBytes ?? DEFAULT_DISK_RESERVE_BYTES };
      const { storage, migration } = await openPgliteStorage({ dataDir: settings.dataDir, exclusive, diskReserve, ...sql });
      tighten(settings.dataDir);
      logMigration(logger, migration);
      const close = storage.close;
      return Object.assign(storage, {
        close: () =>
          close().finally(() => {
            try {
              tighten(settings.dataDir);
            } finally {
              unlock();
            }
          }),
      });
    } catch (error) {
      unlock();
      throw error;
    }
  }
  const { openPostgresStorage } = await import('../adapters/postgres/index.ts');
  const { storage, migration } = await openPostgresStorage({
    url: settings.url,
    schema: settings.schema,
    preparedStatements: settings.preparedStatements,
    rateLimit: { timeoutMs: settings.rateLimitTimeoutMs },
    ...sql,
  });
  logMigration(logger, migration);
  return storage;
}
