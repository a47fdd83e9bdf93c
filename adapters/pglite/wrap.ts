/**
 * The SQL layer's client over an open PGlite. Kept out of the package entry point: its signature names
 * PGlite's own type, whose published declarations need @types/emscripten, which PGlite does not install.
 *
 * @module
 */
import type { PGlite } from '@electric-sql/pglite';
import { checkSchemaName, readThenWriteIn, type SqlClient, type SqlSession, type SqlValue } from '../sql/client.ts';

type Queryable = Pick<PGlite, 'query' | 'exec'>;

/** A statement that only reads: it needs no disk space, so it runs whatever the disk reserve says. */
const READ_ONLY = /^\s*select\b/i;

type Later = (run: () => void) => unknown;
const later: Later = (globalThis as { setImmediate?: Later }).setImmediate ?? ((run) => setTimeout(run, 0));

/**
 * Gives the event loop a turn. PGlite runs each statement on this thread and settles it with promises
 * alone, so a loop of statements (an export, page after page) never let a socket be read: one export of
 * 60,000 entries left the public API, /healthz and SIGTERM unanswered for 12 s. Each statement outside a
 * transaction ends with a turn, so other requests are answered between the pages of a long read.
 */
export const yieldTurn = (): Promise<void> => new Promise((resolve) => void later(resolve));

function session(db: Queryable, beforeWrite: () => void, turns = false): SqlSession {
  const query = async <Row extends object>(text: string, params: readonly SqlValue[] = []) => {
    if (!READ_ONLY.test(text)) beforeWrite();
    const { rows } = await db.query<Row>(text, [...params]);
    if (turns) await yieldTurn();
    return rows;
  };
  // In-process: no statement outlives its caller, so a write is a plain statement. It meets the reserve
  // even when it reads as a select (a function that writes: vote toggles, budgeted feedback).
  return {
    query,
    write: async <Row extends object>(text: string, params: readonly SqlValue[] = []) => {
      beforeWrite();
      return (await db.query<Row>(text, [...params])).rows;
    },
    exec: async (script) => {
      beforeWrite();
      await db.exec(script);
    },
  };
}

/**
 * A client over an open PGlite, bound to one schema (PGlite's single connection takes its search_path).
 *
 * @param db The database.
 * @param schema The schema of every table.
 * @param owned Whether closing the client closes the database.
 * @param beforeWrite Runs before each statement that may write, and before each transaction; throwing
 *   refuses it (the disk reserve, disk-reserve.ts).
 */
export async function wrapPglite(db: PGlite, schema: string, owned: boolean, beforeWrite: () => void = () => {}): Promise<SqlClient> {
  checkSchemaName(schema);
  await db.exec(`set search_path to "${schema}"`);
  const transaction: SqlClient['transaction'] = async (work) => {
    beforeWrite();
    return db.transaction((tx) => work(session(tx, beforeWrite)));
  };
  return {
    driver: 'pglite',
    schema,
    ...session(db, beforeWrite, true),
    transaction,
    readThenWrite: readThenWriteIn({ transaction }),
    close: async () => {
      if (owned) await db.close();
    },
  };
}
