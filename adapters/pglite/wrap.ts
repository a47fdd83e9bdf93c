/**
 * The SQL layer's client over an open PGlite. Kept out of the package entry point: its signature names
 * PGlite's own type, whose published declarations need @types/emscripten, which PGlite does not install.
 *
 * @module
 */
import type { PGlite } from '@electric-sql/pglite';
import { checkSchemaName, type SqlClient, type SqlSession, type SqlValue } from '../sql/client.ts';

type Queryable = Pick<PGlite, 'query' | 'exec'>;

function session(db: Queryable): SqlSession {
  const query = async <Row extends object>(text: string, params: readonly SqlValue[] = []) =>
    (await db.query<Row>(text, [...params])).rows;
  // In-process: no statement outlives its caller, so a write is a plain statement.
  return {
    query,
    write: query,
    exec: async (script) => void (await db.exec(script)),
  };
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
