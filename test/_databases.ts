/**
 * Databases for storage tests: each test gets a fresh schema, dropped afterwards, so parallel runs on one
 * server never meet. Postgres is DATABASE_URL when set; otherwise an in-process PGlite served over the
 * wire protocol stands in for it, and the first use says so.
 */
import { PGlite } from '@electric-sql/pglite';
import postgres from 'postgres';
import { createPostgresClient } from '../adapters/postgres/index.ts';
import { wrapPglite } from '../adapters/pglite/index.ts';
import { serveWire } from './_pglite-wire.ts';
import type { SqlClient } from '../adapters/sql/client.ts';

let counter = 0;

/** A schema name unique to this process and call: t_<pid>_<time>_<n>. */
export function uniqueSchema(): string {
  return `t_${process.pid}_${Date.now().toString(36)}_${counter++}`;
}

/** The Postgres every test of this process uses. */
export interface TestPostgres {
  url: string;
  /** "postgres" for DATABASE_URL, "pglite-socket" for the stand-in. */
  kind: 'postgres' | 'pglite-socket';
  /**
   * A schema for one test. PGlite has one database and one backend and ignores the search_path startup
   * parameter, so the stand-in always uses "public", emptied first; it is private to this process.
   */
  freshSchema(): Promise<string>;
  /** Drops a test schema (and everything in it). */
  dropSchema(schema: string): Promise<void>;
  close(): Promise<void>;
}

let shared: Promise<TestPostgres> | null = null;

/** DATABASE_URL, or the PGlite stand-in started on 127.0.0.1 on first use. Prints which. */
export function testPostgres(): Promise<TestPostgres> {
  return (shared ??= open());
}

async function open(): Promise<TestPostgres> {
  const configured = process.env['DATABASE_URL'];
  if (configured) {
    console.log(`postgres tests: using DATABASE_URL (${new URL(configured).host})`);
    const admin = postgres(configured, { max: 1, onnotice: () => {} });
    return {
      url: configured,
      kind: 'postgres',
      freshSchema: async () => uniqueSchema(),
      dropSchema: async (schema) => void (await admin.unsafe(`drop schema if exists "${schema}" cascade`)),
      close: () => admin.end({ timeout: 5 }),
    };
  }
  const db = await PGlite.create();
  const server = await serveWire(db);
  const url = server.url;
  console.log(`postgres tests: DATABASE_URL is unset; using PGlite served over the wire protocol at ${url}`);
  return {
    url,
    kind: 'pglite-socket',
    freshSchema: async () => {
      await db.exec('drop schema if exists public cascade; create schema public');
      return 'public';
    },
    dropSchema: async (schema) => void (await db.exec(`drop schema if exists "${schema}" cascade`)),
    close: async () => {
      await server.close();
      await db.close();
    },
  };
}

/** A Postgres client on a fresh schema of the test Postgres. */
export async function postgresClient(options: { schema?: string; maxConnections?: number } = {}): Promise<SqlClient> {
  const pg = await testPostgres();
  return createPostgresClient({ url: pg.url, ...options, schema: options.schema ?? (await pg.freshSchema()) });
}

let pglite: Promise<PGlite> | null = null;

/** A client on a fresh schema of one in-memory PGlite shared by this process's tests (one at a time). */
export async function pgliteClient(schema = uniqueSchema()): Promise<SqlClient> {
  const db = await (pglite ??= PGlite.create());
  return wrapPglite(db, schema, false);
}

/** Closes what this process opened: the test Postgres connection or stand-in, and the shared PGlite. */
export async function closeTestDatabases(): Promise<void> {
  const opened = [shared, pglite];
  shared = pglite = null;
  for (const database of opened) if (database) await (await database).close();
}
