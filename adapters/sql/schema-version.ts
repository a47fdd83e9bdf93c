/**
 * Reads a schema's migration version without changing anything, for programs that must not migrate
 * themselves (the Cloudflare Worker: migrations run from the operator's machine with `npm run migrate`).
 *
 * @module
 */
import type { SqlSession } from './client.ts';
import { MIGRATIONS } from './migrations.ts';

/** The newest migration this code knows. */
export const LATEST_MIGRATION = MIGRATIONS.reduce((max, m) => Math.max(max, m.version), 0);

/** The schema is older than the code: it has to be migrated before this code can run on it. */
export class SchemaBehind extends Error {
  override name = 'SchemaBehind';
  constructor(readonly version: number, readonly latest: number) {
    super(
      `the database schema is at migration ${version} and this code needs ${latest}: run \`npm run migrate\` ` +
        'with DATABASE_URL (and DATABASE_SCHEMA) pointing at the database, then retry',
    );
  }
}

/**
 * The schema's version: the newest applied migration, 0 when it was never migrated.
 *
 * @param db A session whose search_path is the schema.
 */
export async function schemaVersion(db: SqlSession): Promise<number> {
  const [table] = await db.query<{ present: boolean }>(`select to_regclass('schema_migrations') is not null as present`);
  if (!table?.present) return 0;
  const [row] = await db.query<{ version: number }>(`select coalesce(max(version), 0)::int as version from schema_migrations`);
  return row?.version ?? 0;
}

/**
 * Checks that the schema has every migration this code knows (a newer schema is fine: migrations only add).
 *
 * @param db A session whose search_path is the schema.
 * @returns The schema's version.
 * @throws SchemaBehind when a migration is missing.
 */
export async function requireSchema(db: SqlSession): Promise<number> {
  const version = await schemaVersion(db);
  if (version < LATEST_MIGRATION) throw new SchemaBehind(version, LATEST_MIGRATION);
  return version;
}
