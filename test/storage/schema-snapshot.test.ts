/**
 * docs/schema.sql is the schema a fresh database gets from every migration, on PGlite and on PostgreSQL
 * (DATABASE_URL, else PGlite over the wire): tables, columns, types, constraints, indexes, comments and
 * function signatures, read back from pg_catalog.
 */
import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { migrate } from '../../adapters/sql/migrate.ts';
import { describeSchema, SNAPSHOT_PATH } from '../../scripts/schema-snapshot.ts';
import { closeTestDatabases, pgliteSchema, postgresSchema } from '../_databases.ts';

const snapshot = readFileSync(SNAPSHOT_PATH, 'utf8');

for (const [name, open] of [['pglite', pgliteSchema], ['postgres', postgresSchema]] as const) {
  const test = suite(`schema snapshot on ${name}`);

  test('a freshly migrated database has exactly the schema of docs/schema.sql', async () => {
    const { client, drop } = await open();
    try {
      await migrate(client);
      assert.fixture(
        await describeSchema(client),
        snapshot,
        'docs/schema.sql is not what the migrations build: run `npm run schema:snapshot` and commit the file with the migration',
      );
    } finally {
      await drop();
    }
  });

  test.run();
}

const last = suite('schema snapshot: clean-up');
last('closes the test databases', closeTestDatabases);
last.run();
