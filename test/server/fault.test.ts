/**
 * The database goes away under a running server (through a proxy the test cuts): requests get a JSON
 * 500 within 2 s, the rate limit counts on the instance, the process stays up, and service resumes by itself.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { type HttpResult, sendHttp } from '../_setup.ts';
import { closeTestDatabases, testPostgres } from '../_databases.ts';
import { type CuttableProxy, cuttableProxy, type Fault } from '../_proxy.ts';
import { type ServerProcess, startServerProcess } from '../_spawn.ts';
import { loadScaled } from '../_load.ts';

const INTERNAL_ERROR = {
  code: 'internal_error',
  message: 'The server failed to handle the request.',
  resolution: 'Retry later; if the problem persists, contact support.',
};

interface Context {
  proxy: CuttableProxy | null;
  server: ServerProcess | null;
  schema: string;
}

const test = suite<Context>('a database fault under a running server', { proxy: null, server: null, schema: '' });

test.before(async (context) => {
  const pg = await testPostgres();
  context.schema = await pg.freshSchema();
  context.proxy = await cuttableProxy(pg.url);
  context.server = await startServerProcess({ DATABASE_URL: context.proxy.url, DATABASE_SCHEMA: context.schema });
});

test.after(async (context) => {
  // The assertion last: when the server does not stop cleanly, the proxy and the schema still go.
  const code = await context.server?.stop();
  await context.proxy?.close();
  if (context.schema) await (await testPostgres()).dropSchema(context.schema);
  await closeTestDatabases();
  if (context.server) assert.is(code, 0, 'the server stops cleanly after the faults');
});

async function timed(port: number, init: Parameters<typeof sendHttp>[1]): Promise<HttpResult & { ms: number }> {
  const start = performance.now();
  const result = await sendHttp(port, init);
  return { ...result, ms: performance.now() - start };
}

const vote = { method: 'POST', path: '/api/v1/roadmap', headers: { 'content-type': 'application/json' }, body: '{"featureId":1}' };

for (const [index, fault] of (['reset', 'silent'] as Fault[]).entries()) {
  const from = (n: number) => `127.0.${index + 3}.${n}`;
  test(`${fault}: database requests get a JSON 500 within 2 s; the rest is served, the rate limit counts on the instance`, async (context) => {
    const { port } = context.server!;
    assert.is((await sendHttp(port, { path: '/api/v1/roadmap', from: from(1) })).status, 200);
    await context.proxy!.cut(fault);
    try {
      for (const init of [{ path: '/api/v1/roadmap' }, vote, { path: '/api/v1/checkout/status?session_id=cs_sim_x' }]) {
        const answer = await timed(port, { ...init, from: from(2) });
        assert.is(answer.status, 500, `${init.path}`);
        assert.is(answer.headers['content-type'], 'application/json');
        assert.equal(answer.json(), INTERNAL_ERROR);
        assert.ok(answer.ms < loadScaled(2000), `${init.path} took ${Math.round(answer.ms)} ms`);
      }
      const pricing = await timed(port, { path: '/api/v1/pricing', from: from(2) });
      assert.is(pricing.status, 200);
      // The fourth request of this client, counted by the instance itself (test/server/rate-limit-outage.test.ts).
      assert.is(pricing.headers['ratelimit-remaining'], '116');
      assert.ok(pricing.ms < loadScaled(2000), `pricing took ${Math.round(pricing.ms)} ms`);
    } finally {
      await context.proxy!.restore();
    }
    const back = await sendHttp(port, { path: '/api/v1/roadmap', from: from(3) });
    assert.is(back.status, 200);
    // The shared counters take over again at the first probe that the database answers (one a second).
    const resumed = () => context.server!.lines.filter((line) => line.includes('rate limit database answers again')).length > index;
    const deadline = Date.now() + loadScaled(10_000);
    while (!resumed() && Date.now() < deadline) await sendHttp(port, { path: '/api/v1/pricing', from: from(3) });
    assert.ok(resumed(), 'the shared counters count again');
  });
}

test('the faults were logged server-side, with the driver text kept out of every response', (context) => {
  const lines = context.server!.lines.map((line) => JSON.parse(line) as { level: string; message: string });
  assert.ok(lines.some((l) => l.level === 'error' && l.message === 'unhandled error'));
  assert.ok(lines.some((l) => l.level === 'warn' && l.message === 'rate limit database unavailable; counting on this instance until it answers'));
});

test.run();
