/**
 * Migration 38 on PGlite and PostgreSQL: a stored rollout and each ramp plan's steps become basis points
 * (times 100), the rest of a plan kept as it was; the column holds 0-10000, and an instance of before, which
 * names `rollout_percent`, fails its reads instead of serving a hundredth of each rollout.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { migrate } from '../../adapters/sql/migrate.ts';
import { MIGRATIONS } from '../../adapters/sql/migrations.ts';
import { createSqlReleaseStore } from '../../adapters/sql/releases.ts';
import { closeTestDatabases, pgliteSchema, postgresSchema } from '../_databases.ts';

const HOUR = 3_600_000;
const START = Date.UTC(2026, 11, 1);

for (const [name, open] of [['pglite', pgliteSchema], ['postgres', postgresSchema]] as const) {
  const test = suite(`migration 38 (rollout basis points) on ${name}`);

  test('rollouts and ramp steps are multiplied by 100; the plan keeps its other fields; the column holds 0-10000', async () => {
    const { client, drop } = await open();
    try {
      await migrate(client, MIGRATIONS.filter((m) => m.version <= 37));
      const insert = (version: string, percent: number, ramp: object | null) =>
        client.query(
          `insert into releases (version, msi_url, rollout_percent, published_at, ramp)
           values ($1::text, 'https://example.com/x.msi', $2::int, to_timestamp($3::float8 / 1000), $4::text::jsonb)`,
          [version, percent, START, ramp === null ? null : JSON.stringify(ramp)],
        );
      const plan = { steps: [1, 5, 25, 100], everyMs: HOUR, startAt: START, watchFrom: START + HOUR, halt: { minClients: 3 } };
      await insert('2.5.0', 100, null);
      await insert('2.6.0', 0, null);
      await insert('2.7.0', 5, plan);
      assert.equal((await migrate(client)).applied.includes(38), true);
      const store = createSqlReleaseStore(client);
      const stored = (await store.listReleases()).map((r) => [r.version, r.rolloutBasisPoints, r.ramp]).sort();
      assert.equal(stored, [
        ['2.5.0', 10000, null],
        ['2.6.0', 0, null],
        ['2.7.0', 500, { basisPoints: [100, 500, 2500, 10000], everyMs: HOUR, startAt: START, watchFrom: START + HOUR, halt: { minClients: 3 } }],
      ]);
      assert.is((await store.setRollout('2.6.0', 50))?.rolloutBasisPoints, 50, 'half a percent is kept');
      let refused = '';
      await store.setRollout('2.6.0', 10_001).catch((error: Error) => (refused = error.message));
      assert.match(refused, /releases_rollout_basis_points_check/);
      let old = '';
      await client.query('select rollout_percent from releases').catch((error: Error) => (old = error.message));
      assert.match(old, /rollout_percent/, 'the old column is gone');
    } finally {
      await drop();
    }
  });

  test.run();
}

const last = suite('migration 38: clean-up');
last('closes the test databases', closeTestDatabases);
last.run();
