/**
 * The one thing the SQL layer needs from a Postgres driver: run a statement, run a script, and run work
 * in a transaction. The postgres.js and PGlite adapters each implement it in a few lines, so every query
 * and migration exists once, here in adapters/sql.
 *
 * @module
 */

/** One connection's worth of statements: inside a transaction, or any pooled connection outside one. */
export interface SqlSession {
  /**
   * Runs one statement with positional parameters ($1, $2, ...).
   *
   * @param text The statement; parameters are cast in the text (`$1::int`), so drivers need no type hints.
   * @param params The values of $1, $2, ...
   * @returns The rows, as objects keyed by column name.
   */
  query<Row extends object>(text: string, params?: readonly SqlValue[]): Promise<Row[]>;
  /**
   * Runs one statement that changes data, as `query`, but never applied after its caller gave up: a
   * driver that queues statements (postgres.js, through an outage) rolls back one whose deadline passed,
   * so a rejection means "not applied" (docs/errors.md, "A 500 on a write").
   */
  write<Row extends object>(text: string, params?: readonly SqlValue[]): Promise<Row[]>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(script: string): Promise<void>;
}

/** A statement and its parameters. */
export interface SqlStatement {
  text: string;
  params?: readonly SqlValue[];
}

/** What a read-then-write transaction decided: its result, and the statement that completes it, if any. */
export interface SqlDecision<T> {
  result: T;
  write?: SqlStatement;
}

/** A database: statements, plus transactions held on one connection. */
export interface SqlClient extends SqlSession {
  /** The driver's name for logs: "postgres" or "pglite". */
  readonly driver: string;
  /** The schema every statement runs in (the connection's search_path). */
  readonly schema: string;
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (session: SqlSession) => Promise<T>): Promise<T>;
  /**
   * One transaction that reads, decides in this process, then writes: `reads` run in order (each with a
   * snapshot taken after the one before, so a read sent after a lock sees what the lock waited for), their
   * rows go to `decide`, and its write, if any, is committed (without one, the transaction rolls back,
   * whatever the reads did). A driver over a network (postgres.js) does it in two round trips, the reads
   * sent with BEGIN and the write with COMMIT, so a lock the reads take is held for one round trip. Like
   * `write`, never applied after its caller gave up.
   */
  readThenWrite<T>(reads: readonly SqlStatement[], decide: (rows: Record<string, unknown>[][]) => SqlDecision<T>): Promise<T>;
  close(): Promise<void>;
}

/** Thrown out of a transaction to roll it back when `decide` wrote nothing, carrying its result. */
class NothingToWrite<T> {
  constructor(readonly result: T) {}
}

/**
 * `readThenWrite` over `transaction`, one statement after another: for a database in this process
 * (PGlite), where a round trip costs nothing. Without a write it rolls back, as postgres.js's does.
 */
export function readThenWriteIn(client: Pick<SqlClient, 'transaction'>): SqlClient['readThenWrite'] {
  return async (reads, decide) => {
    try {
      return await client.transaction(async (tx) => {
        const rows: Record<string, unknown>[][] = [];
        for (const read of reads) rows.push(await tx.query<Record<string, unknown>>(read.text, read.params));
        const { result, write } = decide(rows);
        if (!write) throw new NothingToWrite(result);
        await tx.query(write.text, write.params);
        return result;
      });
    } catch (error) {
      if (error instanceof NothingToWrite) return error.result as ReturnType<typeof decide>['result'];
      throw error;
    }
  };
}

/** A parameter value: every statement casts its parameters, so plain JSON-like values are enough. */
export type SqlValue = string | number | boolean | null | readonly (string | null)[];

/** A schema name that needs no quoting: lower-case letters, digits and underscores. */
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Checks a schema name before it is put into SQL text (search_path, CREATE SCHEMA).
 *
 * @param name The schema name from configuration.
 * @returns The name, when it is a plain lower-case identifier.
 * @throws Error naming the rule otherwise.
 */
export function checkSchemaName(name: string): string {
  if (!SCHEMA_NAME.test(name)) {
    throw new Error(`schema name ${JSON.stringify(name)} must be lower-case letters, digits and underscores`);
  }
  return name;
}
