/**
 * The storages every contract test runs against: memory, PGlite, and Postgres (DATABASE_URL, or the
 * PGlite stand-in served over the wire protocol). Each open gives a fresh, empty storage.
 */
import { createMemoryStorage } from '../../adapters/memory/index.ts';
import { type ExportSource, memoryExportSource } from '../../adapters/export/source.ts';
import type { SqlClient } from '../../adapters/sql/client.ts';
import { migrate } from '../../adapters/sql/migrate.ts';
import { createSqlStorage } from '../../adapters/sql/storage.ts';
import type { Storage } from '../../core/ports/ports.ts';
import { manualClock } from '../_setup.ts';
import { NO_RATE_LIMIT_DEADLINE, pgliteSchema, postgresClient, testPostgres } from '../_databases.ts';

/** A fresh storage and what a test needs around it. */
export interface OpenStorage {
  storage: Storage & ExportSource;
  /** Ends every rate-limit window now: the memory clock moves on, SQL rows are aged on the database. */
  endWindows(): Promise<void>;
  close(): Promise<void>;
}

export interface StorageTarget {
  name: 'memory' | 'pglite' | 'postgres';
  open(): Promise<OpenStorage>;
}

async function sqlTarget(client: SqlClient, drop: () => Promise<void>, exclusive = false): Promise<OpenStorage> {
  await migrate(client);
  // PGlite as the server runs it: the only client of its database, counters in memory on this clock.
  const clock = manualClock();
  const storage = createSqlStorage(client, exclusive ? { exclusive: { clock } } : { rateLimit: NO_RATE_LIMIT_DEADLINE });
  return {
    storage,
    endWindows: async () =>
      exclusive ? clock.advance(24 * 60 * 60 * 1000) : void (await client.query(`update rate_limits set reset_at = now() - interval '1 millisecond'`)),
    close: async () => {
      await storage.close();
      await drop();
    },
  };
}

export const memoryTarget: StorageTarget = {
  name: 'memory',
  async open() {
    const clock = manualClock();
    const storage = createMemoryStorage({ clock });
    return {
      storage: { ...storage, ...memoryExportSource(storage) },
      endWindows: async () => clock.advance(24 * 60 * 60 * 1000),
      close: async () => {},
    };
  },
};

export const pgliteTarget: StorageTarget = {
  name: 'pglite',
  async open() {
    const { client, drop } = await pgliteSchema();
    return sqlTarget(client, drop, true);
  },
};

export const postgresTarget: StorageTarget = {
  name: 'postgres',
  async open() {
    const client = await postgresClient();
    return sqlTarget(client, async () => (await testPostgres()).dropSchema(client.schema));
  },
};

export const ALL_TARGETS: readonly StorageTarget[] = [memoryTarget, pgliteTarget, postgresTarget];
