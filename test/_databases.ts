/**
 * Databases for storage tests: each test gets a fresh schema, dropped afterwards, so parallel runs on one
 * server never meet. Postgres is DATABASE_URL when set; otherwise an in-process PGlite served over the
 * wire protocol stands in for it, and the first use says so.
 */
import { PGlite } from '@electric-sql/pglite';
import { cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { createPostgresClient, type PostgresOptions } from '../adapters/postgres/index.ts';
import { wrapPglite } from '../adapters/pglite/wrap.ts';
import { serveWire } from './_pglite-wire.ts';
import type { SqlClient } from '../adapters/sql/client.ts';

let counter = 0;

const PGLITE_VERSION = (
  JSON.parse(readFileSync(new URL('../node_modules/@electric-sql/pglite/package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;

/**
 * An initialised, empty PGlite data directory kept in the temp directory across runs: creating one takes
 * 2-3 s (initdb), copying it 0.2 s. Built aside and renamed into place, so parallel test files never see
 * half of one.
 */
async function pgliteTemplate(): Promise<string> {
  const template = join(tmpdir(), `converter-site-api-pglite-${PGLITE_VERSION}`);
  if (existsSync(join(template, 'PG_VERSION'))) return template;
  const building = mkdtempSync(`${template}-building-`);
  await (await PGlite.create(building)).close();
  try {
    renameSync(building, template);
  } catch {
    // Another test process put its template in place first.
    rmSync(building, { recursive: true, force: true });
  }
  return template;
}

/**
 * A fresh data directory holding an empty, initialised PGlite database.
 *
 * @param dir Where to put it; a new temp directory by default.
 * @returns The directory; the caller removes it.
 */
/**
 * The rate-limit deadline of test storages: setTimeout's longest delay, so it never fires in a run. The
 * 300 ms default is the outage switch (tested in test/server/rate-limit-outage.test.ts); on a loaded
 * machine an ordinary batch can take longer, and the counts would turn per instance.
 */
export const NO_RATE_LIMIT_DEADLINE = { timeoutMs: 2 ** 31 - 1 } as const;

export async function freshPgliteDir(dir = mkdtempSync(join(tmpdir(), 'converter-site-api-test-'))): Promise<string> {
  cpSync(await pgliteTemplate(), dir, { recursive: true });
  return dir;
}

/** A fresh PGlite in a temp directory that is removed when it closes. */
async function freshPglite(): Promise<{ db: PGlite; close(): Promise<void> }> {
  const dir = await freshPgliteDir();
  const db = await PGlite.create(dir);
  return {
    db,
    close: async () => {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

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
  const { db, close } = await freshPglite();
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
      await close();
    },
  };
}

/** A Postgres client on a fresh schema of the test Postgres. */
export async function postgresClient(options: Omit<PostgresOptions, 'url'> = {}): Promise<SqlClient> {
  const pg = await testPostgres();
  return createPostgresClient({ url: pg.url, ...options, schema: options.schema ?? (await pg.freshSchema()) });
}

/** A client on a fresh schema, and what drops that schema when the test is done. */
export interface SchemaClient {
  client: SqlClient;
  drop(): Promise<void>;
}

/** postgres.js on a fresh schema of the test Postgres; `drop` closes the client and drops the schema. */
export async function postgresSchema(options: Omit<PostgresOptions, 'url' | 'schema'> = {}): Promise<SchemaClient> {
  const client = await postgresClient(options);
  return {
    client,
    drop: async () => {
      await client.close();
      await (await testPostgres()).dropSchema(client.schema);
    },
  };
}

let pglite: ReturnType<typeof freshPglite> | null = null;

/** A client on a fresh schema of one PGlite shared by this process's tests (one at a time). */
export async function pgliteClient(schema = uniqueSchema()): Promise<SqlClient> {
  const { db } = await (pglite ??= freshPglite());
  return wrapPglite(db, schema, false);
}

/** A fresh schema of the shared PGlite (`pgliteClient`); `drop` drops it (the PGlite stays open). */
export async function pgliteSchema(): Promise<SchemaClient> {
  const client = await pgliteClient();
  return { client, drop: async () => void (await client.exec(`drop schema "${client.schema}" cascade`)) };
}

/** Closes what this process opened: the test Postgres connection or stand-in, and the shared PGlite. */
export async function closeTestDatabases(): Promise<void> {
  const opened = [shared, pglite];
  shared = pglite = null;
  for (const database of opened) if (database) await (await database).close();
}
