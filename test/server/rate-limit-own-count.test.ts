/**
 * The shared rate limit on PostgreSQL keeps this instance's own count of every hit beside the shared one
 * (issue 20, item 5): a client this instance knows to be over its quota is refused without the database,
 * so a flood of 429s takes no connection from other clients' writes; and a burst that outlives the
 * database is held to what is left of the quota, not given a fresh one.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createPostgresClient } from '../../adapters/postgres/index.ts';
import { migrate } from '../../adapters/sql/migrate.ts';
import type { SharedRateLimitStore } from '../../adapters/sql/shared-rate-limits.ts';
import { createSqlStorage, type SqlStorage } from '../../adapters/sql/storage.ts';
import { closeTestDatabases, testPostgres } from '../_databases.ts';
import { type CuttableProxy, cuttableProxy } from '../_proxy.ts';
import { type InProcessServer, startInProcessServer } from '../_in-process.ts';
import { manualClock, memoryLogger } from '../_setup.ts';

const test = suite('the own count beside the shared rate limit');
let schema = '';
let proxy: CuttableProxy;
let storage: SqlStorage;
let server: InProcessServer;

test.before.each(async () => {
  const pg = await testPostgres();
  schema = await pg.freshSchema();
  proxy = await cuttableProxy(pg.url);
  const client = createPostgresClient({ url: proxy.url, schema });
  await migrate(client);
  const clock = manualClock();
  storage = createSqlStorage(client, { clock, logger: memoryLogger() });
  server = await startInProcessServer({ storage, clock, logger: memoryLogger() });
});

// Each step even when one before it failed, or when before.each stopped halfway (after.each runs then
// too, with what is not opened yet undefined, or a closed one of the test before).
test.after.each(async () => {
  await server?.close().catch(() => {});
  await storage?.close().catch(() => {});
  await proxy?.close().catch(() => {});
  await (await testPostgres()).dropSchema(schema);
});
test.after(closeTestDatabases);

const statements = () => (storage.rateLimits as SharedRateLimitStore).statements;

test('past its quota, a client is refused without a statement on the shared counters', async () => {
  for (let i = 0; i < 120; i++) assert.is((await server.request({ path: '/api/v1/version', from: '127.0.14.1' })).status, 200);
  const before = statements();
  const refused = await Promise.all(Array.from({ length: 50 }, () => server.request({ path: '/api/v1/version', from: '127.0.14.1' })));
  assert.equal([...new Set(refused.map((r) => `${r.status} ${r.headers['ratelimit-remaining']}`))], ['429 0']);
  assert.is(statements(), before);
  // Another client still counts on the shared counters.
  assert.is((await server.request({ path: '/api/v1/version', from: '127.0.14.2' })).headers['ratelimit-remaining'], '119');
  assert.is(statements(), before + 1);
});

test('a burst while the database does not answer gets what is left of the quota, not a fresh one', async () => {
  for (let i = 0; i < 100; i++) assert.is((await server.request({ path: '/api/v1/version', from: '127.0.14.3' })).status, 200);
  await proxy.cut('reset');
  const burst = await Promise.all(Array.from({ length: 100 }, () => server.request({ path: '/api/v1/version', from: '127.0.14.3' })));
  assert.equal(
    [200, 429].map((status) => burst.filter((r) => r.status === status).length),
    [20, 80],
  );
});

test("an embedder's quota holds across instances: the own count short-cuts only past the policy's limit", async () => {
  const pg = await testPostgres();
  const policy = { name: 'embedder', limit: 200, windowSeconds: 60 };
  const open = (url: string) => {
    const client = createPostgresClient({ url, schema });
    const clock = manualClock();
    return { client, clock, storage: createSqlStorage(client, { clock, logger: memoryLogger() }) };
  };
  const a = open(proxy.url);
  const b = open(pg.url);
  const first = await startInProcessServer({ storage: a.storage, clock: a.clock, logger: memoryLogger(), rateLimit: policy });
  const second = await startInProcessServer({ storage: b.storage, clock: b.clock, logger: memoryLogger(), rateLimit: policy });
  try {
    const send = async (to: InProcessServer, n: number) => {
      const statuses: number[] = [];
      for (let i = 0; i < n; i++) statuses.push((await to.request({ path: '/api/v1/version', from: '127.0.14.4' })).status);
      return [200, 429].map((status) => statuses.filter((s) => s === status).length);
    };
    assert.equal(await send(first, 150), [150, 0]);
    assert.equal(await send(second, 100), [50, 50]);
    // 250 hits are counted in all: the first instance's own 150 must not let more through.
    assert.equal(await send(first, 10), [0, 10]);
  } finally {
    await first.close();
    await second.close();
    await a.storage.close();
    await b.storage.close();
  }
});

test.run();
