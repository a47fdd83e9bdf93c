/**
 * Migration 27 on PGlite and PostgreSQL: the audit rows written before it keep no operator's name (null:
 * nobody can tell whose shared token made them), and the rows written after it keep theirs.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createSqlAuditStore } from '../../adapters/sql/audit.ts';
import { migrate } from '../../adapters/sql/migrate.ts';
import { MIGRATIONS } from '../../adapters/sql/migrations.ts';
import { closeTestDatabases, pgliteSchema, postgresSchema } from '../_databases.ts';

const T0 = Date.UTC(2026, 10, 26, 9, 0, 0, 7);

for (const [name, open] of [['pglite', pgliteSchema], ['postgres', postgresSchema]] as const) {
  const test = suite(`migration 27 (audit actors) on ${name}`);

  test('rows written before the migration read with actor null; rows written after keep their actor', async () => {
    const { client, drop } = await open();
    try {
      await migrate(client, MIGRATIONS.filter((m) => m.version <= 26));
      await client.query(
        `insert into audit (at, action, target, request_id) values (to_timestamp(${T0 / 1000}), 'release.published', '2.5.0 at 10%', 'r-old')`,
      );
      assert.equal((await migrate(client, MIGRATIONS.filter((m) => m.version <= 27))).applied, [27]);
      const audit = createSqlAuditStore(client);
      await audit.record({ at: T0 + 1, action: 'release.pulled', target: '2.5.0', requestId: 'r-new', actor: 'ada' });
      assert.equal(await audit.list({ limit: 10 }), [
        { id: 2, at: T0 + 1, action: 'release.pulled', target: '2.5.0', requestId: 'r-new', actor: 'ada' },
        { id: 1, at: T0, action: 'release.published', target: '2.5.0 at 10%', requestId: 'r-old', actor: null },
      ]);
      assert.equal((await audit.list({ limit: 10, actor: 'ada' })).map((row) => row.id), [2]);
    } finally {
      await drop();
    }
  });

  test.run();
}

const last = suite('migration 27: clean-up');
last('closes the test databases', closeTestDatabases);
last.run();
