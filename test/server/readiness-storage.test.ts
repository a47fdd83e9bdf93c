/**
 * Readiness against a real database: PostgreSQL (DATABASE_URL, else PGlite over the wire) reached through
 * a proxy the test cuts, so that GET /readyz turns 503 when the database goes away and 200 when it is
 * back. PGlite runs the same ping (adapters/sql). The clock is injected: the once-a-second refresh moves
 * by hand, with no sleeps.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createPostgresClient } from '../../adapters/postgres/index.ts';
import { migrate } from '../../adapters/sql/migrate.ts';
import { createSqlStorage } from '../../adapters/sql/storage.ts';
import { createMetricsObserver, createRegistry } from '../../adapters/prometheus/index.ts';
import { closeTestDatabases, testPostgres } from '../_databases.ts';
import { cuttableProxy } from '../_proxy.ts';
import { startInProcessServer } from '../_in-process.ts';
import { manualClock } from '../_setup.ts';

const test = suite('readiness on PostgreSQL');

test.after(async () => {
  await closeTestDatabases();
});

test('PostgreSQL: the database going away turns /readyz 503 within a second of the clock, and back to 200', async () => {
  const pg = await testPostgres();
  const schema = await pg.freshSchema();
  // What was opened, closed in reverse in finally whatever failed, before the schema is dropped.
  const opened: (() => Promise<unknown>)[] = [];
  try {
    const proxy = await cuttableProxy(pg.url);
    opened.push(() => proxy.close());
    const client = createPostgresClient({ url: proxy.url, schema });
    opened.push(() => client.close());
    await migrate(client);
    const registry = createRegistry();
    const clock = manualClock();
    const server = await startInProcessServer({ storage: createSqlStorage(client), clock, observer: createMetricsObserver(registry) });
    opened.push(() => server.close());
    assert.is((await server.request({ path: '/readyz' })).status, 200);
    await proxy.cut('reset');
    assert.is((await server.request({ path: '/readyz' })).status, 200, 'the answer of less than a second ago stands');
    clock.advance(1_000);
    const down = await server.request({ path: '/readyz' });
    assert.is(down.status, 503, down.text);
    assert.is((down.json() as { code: string }).code, 'storage_unavailable');
    assert.not.match(down.text, '127.0.0.1', 'no driver text in the public answer');
    assert.is((await server.request({ path: '/healthz' })).status, 200, 'liveness does not follow the database');
    assert.match(registry.render(), /\nsite_api_storage_errors_total [1-9]/);
    await proxy.restore();
    clock.advance(1_000);
    assert.is((await server.request({ path: '/readyz' })).status, 200);
  } finally {
    for (const close of opened.reverse()) await close().catch(() => {});
    await pg.dropSchema(schema);
  }
});

test.run();
