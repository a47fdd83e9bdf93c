/**
 * Migration 32 on PGlite and PostgreSQL: a release ramping when it runs starts at the step in force then
 * (held at its halt), so an upgrade announces no step reached before it; releases without a plan start at 0.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { migrate } from '../../adapters/sql/migrate.ts';
import { MIGRATIONS } from '../../adapters/sql/migrations.ts';
import { createSqlReleaseStore } from '../../adapters/sql/releases.ts';
import { closeTestDatabases, pgliteSchema, postgresSchema } from '../_databases.ts';

const HOUR = 3_600_000;

for (const [name, open] of [['pglite', pgliteSchema], ['postgres', postgresSchema]] as const) {
  const test = suite(`migration 32 (announced ramp steps) on ${name}`);

  test('ramping releases start at the step in force when it runs; a halted one at the step it holds; others at 0', async () => {
    const { client, drop } = await open();
    try {
      await migrate(client, MIGRATIONS.filter((m) => m.version <= 29));
      const now = Date.now();
      const insert = (version: string, ramp: object | null, haltedAt: number | null) =>
        client.query(
          `insert into releases (version, msi_url, rollout_percent, published_at, ramp, halted_at)
           values ($1::text, 'https://example.com/x.msi', 1, now(), $2::text::jsonb, to_timestamp($3::float8 / 1000))`,
          [version, ramp === null ? null : JSON.stringify(ramp), haltedAt],
        );
      const steps = [1, 5, 25, 100];
      await insert('2.5.0', null, null);
      await insert('2.6.0', { steps, everyMs: HOUR, startAt: now - 2 * HOUR - 60_000 }, null);
      await insert('2.7.0', { steps, everyMs: HOUR, startAt: now - 90 * 24 * HOUR }, null);
      await insert('2.8.0', { steps, everyMs: HOUR, startAt: now - 5 * HOUR }, now - 3 * HOUR - 60_000);
      await insert('2.9.0', { steps, everyMs: HOUR, startAt: now + HOUR }, null);
      assert.equal((await migrate(client)).applied.includes(32), true);
      const announced = (await createSqlReleaseStore(client).listReleases()).map((r) => [r.version, r.announcedStep]).sort();
      assert.equal(announced, [['2.5.0', 0], ['2.6.0', 2], ['2.7.0', 3], ['2.8.0', 1], ['2.9.0', 0]]);
    } finally {
      await drop();
    }
  });

  test.run();
}

const last = suite('migration 32: clean-up');
last('closes the test databases', closeTestDatabases);
last.run();
