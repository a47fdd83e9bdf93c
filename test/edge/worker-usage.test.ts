/**
 * The Worker on PostgreSQL closes each request's database client once the request's background work is
 * done; the usage counts a request writes (core/budgets/usage.ts, at most every 10 s) are part of that work, so
 * they are stored, not lost on a closed client.
 */
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { migrate } from '../../adapters/sql/migrate.ts';
import { EXAMPLE_CONFIG } from '../../server/config.ts';
import { createSiteWorker } from '../../server/worker-app.ts';
import { closeTestDatabases, postgresClient, testPostgres } from '../_databases.ts';
import { manualClock } from '../_setup.ts';

const example = JSON.parse(readFileSync(EXAMPLE_CONFIG, 'utf8')) as Record<string, unknown>;

test.after(() => closeTestDatabases());

test('update checks counted in one request and written by a later one are stored', async () => {
  const pg = await testPostgres();
  const client = await postgresClient();
  await migrate(client);
  const clock = manualClock();
  const worker = createSiteWorker(example, { clock });
  const env = { PRODUCT_VERSION: '2.4.1', DATABASE_URL: pg.url, DATABASE_SCHEMA: client.schema };
  const check = async () => {
    const handed: Promise<unknown>[] = [];
    const request = new Request('https://api.sheets.test/api/v1/version', {
      headers: { 'cf-connecting-ip': '203.0.113.20', 'user-agent': 'Converter/2.4.1 (Windows NT 10.0)' },
    });
    const response = await worker.fetch(request, env, { waitUntil: (work) => void handed.push(work) });
    assert.is(response.status, 200);
    await Promise.all(handed);
  };
  // The Worker logs through the console: keep its lines.
  const logged: string[] = [];
  const { log, error } = console;
  console.log = console.error = (line: unknown) => void logged.push(String(line));
  try {
    await check();
    clock.advance(10_000);
    await check();
    const rows = await client.query<{ count: number }>(`select sum(count)::int as count from usage_counts where kind = 'update_check'`);
    assert.equal(rows, [{ count: 2 }]);
    assert.equal(logged.filter((line) => line.includes('"level":"warn"') || line.includes('"level":"error"')), []);
  } finally {
    Object.assign(console, { log, error });
    await client.close();
    await pg.dropSchema(client.schema);
  }
});

test.run();
