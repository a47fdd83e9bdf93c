/**
 * Storage on PostgreSQL through postgres.js: the SQL layer over a connection pool, with timeouts so a
 * database that is down answers errors quickly instead of holding requests.
 *
 * @module
 */
import postgres from 'postgres';
import { checkSchemaName, type SqlClient, type SqlDecision, type SqlSession, type SqlStatement, type SqlValue } from '../sql/client.ts';
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
   * connection; false by default. postgres.js (3.4.9) drops the promise of that read, so a connection lost
   * during it ends a Node process with an unhandled rejection (porsager/postgres#1192). Without it, array
   * parameters are sent as array literals and array columns are read as JSON; nothing else changes.
   */
  fetchTypes?: boolean;
  /**
   * For a client that serves one request and is closed right after it (the Worker's): writes are sent
   * as plain statements, and closing drops at once whatever is still queued, so nothing the request gave
   * up on runs later. False by default: a pool guards each write instead (see `write` below).
   */
  perRequest?: boolean;
  /**
   * Whether each statement is a named prepared statement on its connection; true by default. Then a
   * statement with parameters costs one round trip from its second use on, and statements sent together
   * go together (a statement postgres.js has not prepared waits for the types of its parameters first: one
   * more round trip, and the statements after it wait too). False for a pooler that cannot keep them
   * (PgBouncer before 1.21, or with max_prepared_statements = 0).
   */
  preparedStatements?: boolean;
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

/** Parameters as postgres.js takes them: arrays as literals when it did not read the array types. */
const parametersFor = (literalArrays: boolean) => (params: readonly SqlValue[]) =>
  (literalArrays ? params.map((p) => (Array.isArray(p) ? arrayLiteral(p as readonly (string | null)[]) : p)) : [...params]) as Parameters;

/** How the statements of one pool are sent. */
interface Sending {
  /** Arrays as literals: postgres.js did not read the array types. */
  literalArrays: boolean;
  /** As named prepared statements. */
  prepare: boolean;
}

function session(sql: postgres.Sql | postgres.TransactionSql, sending: Sending): SqlSession {
  const parameters = parametersFor(sending.literalArrays);
  const options = { prepare: sending.prepare };
  const query = async <Row extends object>(text: string, params: readonly SqlValue[] = []) =>
    Array.from(await sql.unsafe(text, parameters(params), options)) as Row[];
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
function guardedWrite(sql: postgres.Sql, sending: Sending, deadlineMs: number): SqlSession['write'] {
  return <Row extends object>(text: string, params?: readonly SqlValue[]): Promise<Row[]> => {
    let abandoned = false;
    const applied = sql.begin(async (tx) => {
      if (abandoned) throw new Error('write abandoned by its caller before it began');
      const rows = await session(tx, sending).query<Row>(text, params);
      if (abandoned) throw new Error('write abandoned by its caller; rolled back');
      return rows;
    });
    return withDeadline(applied as Promise<Row[]>, deadlineMs, () => void (abandoned = true));
  };
}

/**
 * `readThenWrite` in two round trips on one reserved connection, which postgres.js pipelines: BEGIN and
 * the reads in one write, then the decided statement and COMMIT in one; COMMIT after a failed statement
 * answers ROLLBACK. Guarded as `guardedWrite`: one whose caller gave up never begins, or rolls back
 * instead of sending its write.
 */
function pipelinedReadThenWrite(sql: postgres.Sql, sending: Sending, deadlineMs: number): SqlClient['readThenWrite'] {
  const parameters = parametersFor(sending.literalArrays);
  const options = { prepare: sending.prepare };
  return <T>(reads: readonly SqlStatement[], decide: (rows: Record<string, unknown>[][]) => SqlDecision<T>) => {
    let abandoned = false;
    const run = async (): Promise<T> => {
      const connection = await sql.reserve();
      // postgres.js runs a query once something awaits it, in that order: each goes to Promise.allSettled
      // as it is (not through session's async query, whose await would queue it ahead of BEGIN).
      const send = (s: SqlStatement) => connection.unsafe(s.text, parameters(s.params ?? []), options);
      try {
        if (abandoned) throw new Error('write abandoned by its caller before it began');
        const read = await Promise.allSettled([connection.unsafe('begin'), ...reads.map(send)]);
        const failed = read.find((r) => r.status === 'rejected');
        if (failed) {
          await connection.unsafe('rollback').catch(() => {});
          throw failed.reason;
        }
        const rows = read.slice(1).map((r) => Array.from((r as PromiseFulfilledResult<postgres.RowList<postgres.Row[]>>).value));
        const { result, write } = decide(rows);
        if (abandoned || !write) {
          await connection.unsafe('rollback');
          if (abandoned) throw new Error('write abandoned by its caller; rolled back');
          return result;
        }
        const [written, committed] = await Promise.allSettled([send(write), connection.unsafe('commit')]);
        if (written.status === 'rejected') throw written.reason;
        if (committed.status === 'rejected') throw committed.reason;
        if (committed.value.command !== 'COMMIT') throw new Error(`the transaction ended with ${committed.value.command}, not COMMIT`);
        return result;
      } finally {
        connection.release();
      }
    };
    return withDeadline(run(), deadlineMs, () => void (abandoned = true));
  };
}

/**
 * Opens a pool. Statements are named prepared statements unless `preparedStatements` is false (a pooler
 * that cannot keep them); locks are transaction-level, so PgBouncer in transaction mode works.
 *
 * @param options Where and how to connect.
 */
export function createPostgresClient(options: PostgresOptions): SqlClient {
  const schema = checkSchemaName(options.schema ?? 'public');
  const statementTimeoutMs = options.statementTimeoutMs ?? 1000;
  const fetchTypes = options.fetchTypes ?? false;
  const sending: Sending = { literalArrays: !fetchTypes, prepare: options.preparedStatements ?? true };
  const sql = postgres(options.url, {
    max: options.maxConnections ?? 10,
    connect_timeout: (options.connectTimeoutMs ?? 1000) / 1000,
    idle_timeout: 60,
    prepare: sending.prepare,
    fetch_types: fetchTypes,
    onnotice: () => {},
    ...(options.startupParameters === false ? {} : {
      connection: {
        application_name: 'converter-site-api',
        search_path: `"${schema}"`,
        statement_timeout: statementTimeoutMs,
      },
    }),
  });
  const pooled = session(sql, sending);
  // The server's statement_timeout ends slow statements; this ends waits on a network that went silent.
  const clientDeadline = statementTimeoutMs + 250;
  return {
    driver: 'postgres',
    schema,
    query: (text, params) => withDeadline(pooled.query(text, params), clientDeadline),
    exec: (script) => withDeadline(pooled.exec(script), clientDeadline),
    write: options.perRequest ? (text, params) => withDeadline(pooled.query(text, params), clientDeadline) : guardedWrite(sql, sending, clientDeadline),
    transaction: async (work) => (await sql.begin((tx) => work(session(tx, sending)))) as Awaited<ReturnType<typeof work>>,
    readThenWrite: pipelinedReadThenWrite(sql, sending, clientDeadline),
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
