/**
 * `site_api_licenses_issued_total` counts keys issued, not issuers that raced: concurrent status polls of
 * a paid Plus bundle (two keys) add exactly 2, on every storage, and on two instances sharing one
 * PostgreSQL. Racing issuers sign the same claims at the same instant, so they make identical keys; only
 * the one whose save stored them counts.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createPostgresClient } from '../../adapters/postgres/index.ts';
import { createMetricsObserver, createRegistry, type Registry } from '../../adapters/prometheus/index.ts';
import { migrate } from '../../adapters/sql/migrate.ts';
import { createSqlStorage } from '../../adapters/sql/storage.ts';
import type { Storage } from '../../core/ports/ports.ts';
import { type InProcessServer, startInProcessServer } from '../_in-process.ts';
import { closeTestDatabases, testPostgres } from '../_databases.ts';
import { ALL_TARGETS } from '../storage/_targets.ts';

const POLLS = 12;

async function instance(storage: Storage): Promise<InProcessServer & { registry: Registry }> {
  const registry = createRegistry();
  const server = await startInProcessServer({ storage, observer: createMetricsObserver(registry) });
  return { ...server, registry };
}

function issued(registry: Registry): number {
  const line = registry.render().split('\n').find((l) => l.startsWith('site_api_licenses_issued_total '));
  return Number(line?.split(' ')[1] ?? 0);
}

/** Opens a Plus bundle checkout on `first`, pays it in the simulator, then polls its status from every instance at once. */
async function payAndPoll(first: InProcessServer, instances: readonly InProcessServer[]): Promise<void> {
  const created = await first.request({
    method: 'POST',
    path: '/api/v1/checkout/create',
    headers: { 'content-type': 'application/json' },
    body: '{"product":"plus_bundle","channel":"msi"}',
  });
  assert.is(created.status, 200);
  const { sessionId } = created.json() as { sessionId: string };
  assert.is((await first.request({ method: 'POST', path: `/checkout/simulator/${sessionId}/pay` })).status, 303);
  const polls = await Promise.all(
    instances.flatMap((server, s) =>
      Array.from({ length: POLLS }, (_, i) => server.request({ path: `/api/v1/checkout/status?session_id=${sessionId}`, from: `127.0.${s + 1}.${i + 1}` }))
    ),
  );
  const bodies = new Set(polls.map((poll) => poll.text));
  assert.equal(polls.map((poll) => poll.status), new Array(polls.length).fill(200));
  assert.is(bodies.size, 1, 'every poll answers the same keys');
  const body = polls[0]!.json() as { status: string; standardLicenseKey: string | null; plusLicenseKey: string | null };
  assert.is(body.status, 'paid');
  assert.ok(body.standardLicenseKey && body.plusLicenseKey);
}

for (const target of ALL_TARGETS) {
  test(`${target.name}: ${POLLS} concurrent status polls of a paid Plus bundle count 2 keys issued`, async () => {
    const open = await target.open();
    const server = await instance(open.storage);
    try {
      await payAndPoll(server, [server]);
      assert.is(issued(server.registry), 2);
    } finally {
      await server.close();
      await open.close();
    }
  });
}

test(`two instances on one PostgreSQL: ${POLLS} polls on each count 2 keys issued in all`, async () => {
  const pg = await testPostgres();
  const schema = await pg.freshSchema();
  const storages = [createPostgresClient({ url: pg.url, schema }), createPostgresClient({ url: pg.url, schema })].map((client) => createSqlStorage(client));
  await migrate(storages[0]!.client);
  const servers = [await instance(storages[0]!), await instance(storages[1]!)];
  try {
    await payAndPoll(servers[0]!, servers);
    assert.is(issued(servers[0]!.registry) + issued(servers[1]!.registry), 2);
  } finally {
    for (const server of servers) await server.close();
    for (const storage of storages) await storage.close();
    await pg.dropSchema(schema);
    await closeTestDatabases();
  }
});

test.run();
