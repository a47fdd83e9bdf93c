/**
 * Storage on PGlite (Postgres compiled to WebAssembly) in a data directory: durable data on one machine
 * with no database server, running exactly the SQL and migrations of the Postgres adapter.
 *
 * @module
 */
import { PGlite } from '@electric-sql/pglite';
import { checkSchemaName, type SqlClient, type SqlSession, type SqlValue } from '../sql/client.ts';
import { migrate, type MigrationReport } from '../sql/migrate.ts';
import { createSqlStorage, type SqlStorage, type SqlStorageOptions } from '../sql/storage.ts';

/** Where the data lives. */
export interface PgliteOptions {
  /** The data directory (DATA_DIR); in memory when omitted. One process at a time may open it. */
  dataDir?: string;
  /** The schema of every table; "public" by default. */
  schema?: string;
}

type Queryable = Pick<PGlite, 'query' | 'exec'>;

function session(db: Queryable): SqlSession {
  return {
    query: async <Row extends object>(text: string, params: readonly SqlValue[] = []) =>
      (await db.query<Row>(text, [...params])).rows,
    exec: async (script) => void (await db.exec(script)),
  };
}

/**
 * Opens a PGlite database. PGlite is one connection: its statements run one at a time, in call order.
 *
 * @param options Where the data lives.
 */
export async function createPgliteClient(options: PgliteOptions = {}): Promise<SqlClient> {
  const db = await PGlite.create(options.dataDir === undefined ? {} : { dataDir: options.dataDir });
  return wrapPglite(db, options.schema ?? 'public', true);
}

/**
 * A client over an open PGlite, bound to one schema (PGlite's single connection takes its search_path).
 *
 * @param db The database.
 * @param schema The schema of every table.
 * @param owned Whether closing the client closes the database.
 */
export async function wrapPglite(db: PGlite, schema: string, owned: boolean): Promise<SqlClient> {
  checkSchemaName(schema);
  await db.exec(`set search_path to "${schema}"`);
  return {
    driver: 'pglite',
    schema,
    ...session(db),
    transaction: (work) => db.transaction((tx) => work(session(tx))),
    close: async () => {
      if (owned) await db.close();
    },
  };
}

/**
 * Opens the PGlite storage: opens the data directory, migrates, and builds the storage.
 *
 * @param options Data directory, batching and retention settings.
 * @returns The storage and what the migration did.
 */
export async function openPgliteStorage(
  options: PgliteOptions & SqlStorageOptions = {},
): Promise<{ storage: SqlStorage; migration: MigrationReport }> {
  const client = await createPgliteClient(options);
  try {
    const migration = await migrate(client);
    return { storage: createSqlStorage(client, options), migration };
  } catch (error) {
    await client.close().catch(() => {});
    throw error;
  }
}
