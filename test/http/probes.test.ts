/**
 * GET /healthz and GET /readyz over a real socket: outside every quota, answered from memory, readiness
 * refreshed from storage at most once a second by the injected clock, 503 once shutdown begins.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createMemoryStorage } from '../../adapters/memory/index.ts';
import { withValidation } from '../_openapi.ts';
import { manualClock } from '../_setup.ts';
import { type InProcessServer, startInProcessServer } from '../_in-process.ts';

const probes = suite('probes over HTTP');
let server: InProcessServer | undefined;

probes.after.each(async () => {
  await server?.close();
  server = undefined;
});

const RATE_LIMIT_NAMES = ['ratelimit', 'ratelimit-policy', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A memory storage whose ping can be made to fail, counting the pings. */
function flakyStorage(clock: ReturnType<typeof manualClock>) {
  const storage = createMemoryStorage({ clock });
  const state = { pings: 0, failing: false };
  storage.ping = async () => {
    state.pings++;
    if (state.failing) throw new Error('connection refused by db.internal:5432');
  };
  return { storage, state };
}

probes('GET /healthz: 200 {"status":"ok"}, no-store, a request id and no rate-limit headers', async () => {
  server = await withValidation(await startInProcessServer());
  const live = await server.request({ path: '/healthz' });
  assert.is(live.status, 200);
  assert.is(live.text, '{"status":"ok"}');
  assert.is(live.headers['content-type'], 'application/json');
  assert.is(live.headers['cache-control'], 'no-store');
  assert.match(live.headers['x-request-id']!, UUID);
  for (const name of RATE_LIMIT_NAMES) assert.is(live.headers[name], undefined, name);
  const head = await server.request({ method: 'HEAD', path: '/healthz' });
  assert.equal([head.status, head.text], [200, '']);
});

probes('GET /readyz: 200 {"status":"ready"} while the storage answers', async () => {
  server = await withValidation(await startInProcessServer());
  const ready = await server.request({ path: '/readyz' });
  assert.is(ready.status, 200);
  assert.is(ready.text, '{"status":"ready"}');
  assert.is(ready.headers['cache-control'], 'no-store');
  for (const name of RATE_LIMIT_NAMES) assert.is(ready.headers[name], undefined, name);
});

probes('another method on a probe is 405 with Allow: GET, HEAD, and is not counted either', async () => {
  server = await startInProcessServer();
  const refused = await server.request({ method: 'POST', path: '/readyz', from: '127.0.3.1' });
  assert.is(refused.status, 405);
  assert.is(refused.headers['allow'], 'GET, HEAD');
  assert.equal(refused.json(), {
    code: 'method_not_allowed',
    message: 'POST is not allowed on /readyz; use GET, HEAD.',
    resolution: 'Use one of the methods in the Allow header.',
  });
  const api = await server.request({ path: '/api/v1/pricing', from: '127.0.3.1' });
  assert.is(api.headers['ratelimit-remaining'], '119');
});

probes('probes use no quota: 200 probes from one address, then its 120 API requests all succeed', async () => {
  server = await startInProcessServer();
  const from = '127.0.3.2';
  for (let i = 0; i < 100; i++) {
    assert.is((await server.request({ path: '/healthz', from })).status, 200);
    assert.is((await server.request({ path: '/readyz', from })).status, 200);
  }
  const statuses: number[] = [];
  for (let i = 0; i < 120; i++) statuses.push((await server.request({ path: '/api/v1/version', from })).status);
  assert.equal([...new Set(statuses)], [200]);
  const over = await server.request({ path: '/api/v1/version', from });
  assert.is(over.status, 429);
  // Even a client over its quota is probed normally.
  assert.is((await server.request({ path: '/readyz', from })).status, 200);
});

probes('readiness asks the storage at most once a second, and says 503 storage_unavailable when it fails', async () => {
  const clock = manualClock();
  const { storage, state } = flakyStorage(clock);
  server = await withValidation(await startInProcessServer({ storage, clock }));
  const probe = () => server!.request({ path: '/readyz' });
  for (let i = 0; i < 20; i++) assert.is((await probe()).status, 200);
  assert.is(state.pings, 1, 'one ping for 20 probes within the same second');

  state.failing = true;
  clock.advance(999);
  assert.is((await probe()).status, 200, 'the last answer is less than a second old');
  assert.is(state.pings, 1);
  clock.advance(1);
  const down = await probe();
  assert.is(down.status, 503);
  assert.equal(down.json(), {
    code: 'storage_unavailable',
    message: 'The storage did not answer a trivial query.',
    resolution: 'Send traffic to another instance; check the database and the server log of this one.',
  });
  assert.is(state.pings, 2);
  assert.equal(
    server.logger.lines.filter((line) => line.message.startsWith('not ready')),
    [{ level: 'warn', message: 'not ready: the storage does not answer', fields: { error: 'connection refused by db.internal:5432' } }],
  );
  // The failure is remembered for a second too, then the storage is asked again.
  state.failing = false;
  clock.advance(500);
  assert.is((await probe()).status, 503);
  assert.is(state.pings, 2);
  clock.advance(500);
  assert.is((await probe()).status, 200);
  assert.is(state.pings, 3);
  assert.is((await server.request({ path: '/healthz' })).status, 200, 'liveness never asked the storage');
  assert.is(state.pings, 3);
});

probes('a ping that has not answered for a second makes the next probes 503 at once, not wait', async () => {
  const clock = manualClock();
  const storage = createMemoryStorage({ clock });
  let answer: () => void = () => {};
  let asked: () => void = () => {};
  const pinged = new Promise<void>((resolve) => (asked = resolve));
  storage.ping = () =>
    new Promise<void>((resolve) => {
      answer = resolve;
      asked();
    });
  server = await startInProcessServer({ storage, clock });
  const first = server.request({ path: '/readyz' });
  await pinged;
  clock.advance(1_000);
  const waiting = await server.request({ path: '/readyz' });
  assert.is(waiting.status, 503);
  assert.equal(waiting.json(), {
    code: 'storage_unavailable',
    message: 'The storage has not answered for 1000 ms.',
    resolution: 'Send traffic to another instance; check the database and the server log of this one.',
  });
  answer();
  assert.is((await first).status, 200, 'the first probe gets the answer once it comes');
});

probes('once shutdown begins (app.drain), /readyz answers 503 shutting_down without asking the storage', async () => {
  const clock = manualClock();
  const { storage, state } = flakyStorage(clock);
  server = await withValidation(await startInProcessServer({ storage, clock }));
  assert.is((await server.request({ path: '/readyz' })).status, 200);
  server.app.drain();
  clock.advance(5_000);
  const draining = await server.request({ path: '/readyz' });
  assert.is(draining.status, 503);
  assert.equal(draining.json(), {
    code: 'shutting_down',
    message: 'This instance is shutting down.',
    resolution: 'Send new requests to another instance; this one stops shortly.',
  });
  assert.is(state.pings, 1);
  // Everything else is still served while the instance drains.
  assert.is((await server.request({ path: '/healthz' })).status, 200);
  assert.is((await server.request({ path: '/api/v1/pricing' })).status, 200);
});

probes.run();
