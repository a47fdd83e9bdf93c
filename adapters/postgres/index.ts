/**
 * Storage on PostgreSQL through postgres.js: the SQL layer over a connection pool, with timeouts so a
 * database that is down answers errors quickly instead of holding requests.
 *
 * @module
 */
import postgres from 'postgres';
import { checkSchemaName, type SqlClient, type SqlSession, type SqlValue } from '../sql/client.ts';
import type { MigrationReport } from '../sql/migrate.ts';
import { openSqlStorage, type SqlStorage, type SqlStorageOptions } from '../sql/storage.ts';

/** How to reach the database. */
export interface PostgresOptions {
  /** A postgres:// URL (DATABASE_URL). */
  url: string;
  /** The schema of every table; "public" by default (DATABASE_SCHEMA). */
  schema?: string;
  /** The most connections in the pool; 10 by default. */
  maxConnections?: number;
  /** How long opening a connection may take; 1000 ms by default. */
  connectTimeoutMs?: number;
  /** How long one statement may take, enforced by the server and, for a dead network, the client; 1000 ms. */
  statementTimeoutMs?: number;
  /**
   * Whether the schema, statement timeout and application name go as startup parameters; true by
   * default. A pooler that refuses them (Cloudflare Hyperdrive, PgBouncer) takes them from the role.
   */
  startupParameters?: boolean;
  /**
   * Whether postgres.js reads the database's array types when it connects: one more round trip per
   * connection; true by default. Without it, array parameters are sent as array literals.
   */
  fetchTypes?: boolean;
  /**
   * For a client that serves one request and is closed right after it (the Worker's): writes are sent
   * as plain statements, and closing drops at once whatever is still queued, so nothing the request gave
   * up on runs later. False by default: a pool guards each write instead (see `write` below).
   */
  perRequest?: boolean;
}

type Parameters = postgres.ParameterOrJSON<never>[];

/**
 * Rejects when `work` has not settled after `ms`: a cut network never answers, and no request may hang on
 * it. `abandon` is called then, so the work can make sure it is not applied later.
 */
function withDeadline<T>(work: PromiseLike<T>, ms: number, abandon?: () => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      abandon?.();
      reject(new Error(`database did not answer within ${ms} ms`));
    }, ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** A text[] literal ({"a","b",NULL}): every statement casts its array parameters, so text is enough. */
function arrayLiteral(values: readonly (string | null)[]): string {
  return `{${values.map((value) => (value === null ? 'NULL' : `"${value.replace(/[\\"]/g, '\\$&')}"`)).join(',')}}`;
}

function session(sql: postgres.Sql | postgres.TransactionSql, literalArrays: boolean): SqlSession {
  const parameters = (params: readonly SqlValue[]) =>
    (literalArrays ? params.map((p) => (Array.isArray(p) ? arrayLiteral(p as readonly (string | null)[]) : p)) : [...params]) as Parameters;
  const query = async <Row extends object>(text: string, params: readonly SqlValue[] = []) =>
    Array.from(await sql.unsafe(text, parameters(params))) as Row[];
  // Inside a transaction its commit decides; on the pool, createPostgresClient guards writes.
  return {
    query,
    write: query,
    exec: async (script) => void (await sql.unsafe(script)),
  };
}

/**
 * A pool's write, never applied after its caller gave up. postgres.js keeps a statement queued through an
 * outage (waiting for a connection, or for a reconnection's backoff) and sends it once the database is
 * back, long after the request was answered 500. So a write runs in a transaction that commits only while
 * its caller still waits: past the deadline, one that had not begun rolls back at once, one that had
 * rolls back after its statement, and a connection reset before the commit aborts it. (postgres.js's
 * cancel() is no way out: a cancelled first statement of a connection leaves that connection stuck.)
 */
function guardedWrite(sql: postgres.Sql, literalArrays: boolean, deadlineMs: number): SqlSession['write'] {
  return <Row extends object>(text: string, params?: readonly SqlValue[]): Promise<Row[]> => {
    let abandoned = false;
    const applied = sql.begin(async (tx) => {
      if (abandoned) throw new Error('write abandoned by its caller before it began');
      const rows = await session(tx, literalArrays).query<Row>(text, params);
      if (abandoned) throw new Error('write abandoned by its caller; rolled back');
      return rows;
    });
    return withDeadline(applied as Promise<Row[]>, deadlineMs, () => void (abandoned = true));
  };
}

/**
 * Opens a pool. Statements are not named prepared statements (`prepare: false`), so the pool also works
 * through PgBouncer in transaction mode and through PGlite served over the wire protocol in tests.
 *
 * @param options Where and how to connect.
 */
export function createPostgresClient(options: PostgresOptions): SqlClient {
  const schema = checkSchemaName(options.schema ?? 'public');
  const statementTimeoutMs = options.statementTimeoutMs ?? 1000;
  const fetchTypes = options.fetchTypes ?? true;
  const sql = postgres(options.url, {
    max: options.maxConnections ?? 10,
    connect_timeout: (options.connectTimeoutMs ?? 1000) / 1000,
    idle_timeout: 60,
    prepare: false,
    fetch_types: fetchTypes,
    onnotice: () => {},
    ...(options.startupParameters === false
      ? {}
      : {
          connection: {
            application_name: 'converter-site-api',
            search_path: `"${schema}"`,
            statement_timeout: statementTimeoutMs,
          },
        }),
  });
  const pooled = session(sql, !fetchTypes);
  // The server's statement_timeout ends slow statements; this ends waits on a network that went silent.
  const clientDeadline = statementTimeoutMs + 250;
  return {
    driver: 'postgres',
    schema,
    query: (text, params) => withDeadline(pooled.query(text, params), clientDeadline),
    exec: (script) => withDeadline(pooled.exec(script), clientDeadline),
    write: options.perRequest ? (text, params) => withDeadline(pooled.query(text, params), clientDeadline) : guardedWrite(sql, !fetchTypes, clientDeadline),
    transaction: async (work) => (await sql.begin((tx) => work(session(tx, !fetchTypes)))) as Awaited<ReturnType<typeof work>>,
    close: () => sql.end({ timeout: options.perRequest ? 0 : 5 }),
  };
}

/**
 * Opens the Postgres storage: connects, migrates (see adapters/sql/migrate.ts), and builds the storage.
 *
 * @param options Connection, batching and retention settings.
 * @returns The storage and what the migration did.
 */
export async function openPostgresStorage(
  options: PostgresOptions & SqlStorageOptions,
): Promise<{ storage: SqlStorage; migration: MigrationReport }> {
  return openSqlStorage(createPostgresClient(options), options);
}
