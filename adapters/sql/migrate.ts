/**
 * Brings a schema up to the latest migration, safely when several instances start at once.
 *
 * @module
 */
import type { SqlClient } from './client.ts';
import { type Migration, MIGRATIONS } from './migrations.ts';

/** What a migration run did. */
export interface MigrationReport {
  schema: string;
  /** The versions applied by this run, in order (empty when the schema was up to date). */
  applied: number[];
  /** The schema's version afterwards. */
  version: number;
  /** The newest version this code knows. A larger `version` means newer code migrated the schema. */
  latest: number;
}

/**
 * Applies the pending migrations in one transaction under a transaction-level advisory lock keyed by the
 * schema, so a second instance starting at the same time waits and then finds nothing left to do. Only
 * additive steps exist, so an older instance keeps working on a newer schema during a rolling deploy.
 *
 * @param client The database, bound to its schema.
 * @param migrations The migrations to apply; all of them by default.
 * @returns What was applied.
 */
export async function migrate(client: SqlClient, migrations: readonly Migration[] = MIGRATIONS): Promise<MigrationReport> {
  const schema = client.schema;
  const latest = migrations.reduce((max, m) => Math.max(max, m.version), 0);
  return client.transaction(async (session) => {
    // Waiting for another instance's migration may take longer than a request's statement timeout.
    await session.exec(`set local statement_timeout = '5min'`);
    await session.query(`select pg_advisory_xact_lock(hashtext('converter-site-api:migrate'), hashtext($1::text))`, [schema]);
    // The schema name was checked by checkSchemaName when the client was opened.
    await session.exec(`
      create schema if not exists "${schema}";
      create table if not exists "${schema}".schema_migrations (
        version integer primary key,
        name text not null,
        applied_at timestamptz not null default now()
      );`);
    const rows = await session.query<{ version: number }>(
      `select coalesce(max(version), 0)::int as version from "${schema}".schema_migrations`,
    );
    let version = rows[0]?.version ?? 0;
    const applied: number[] = [];
    for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
      if (migration.version <= version) continue;
      await session.exec(`set local search_path to "${schema}";\n${migration.sql}`);
      await session.query(`insert into "${schema}".schema_migrations (version, name) values ($1::int, $2::text)`, [
        migration.version,
        migration.name,
      ]);
      applied.push(migration.version);
      version = migration.version;
    }
    return { schema, applied, version, latest };
  });
}
