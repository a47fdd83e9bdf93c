/**
 * X-Request-Id over a real socket: the caller's own when it is 1-128 characters of [A-Za-z0-9._:-],
 * otherwise a fresh UUID, on every answer (errors, 429s and probes included), and on the log lines about
 * the request. Error bodies stay exactly {code, message, resolution}.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createMemoryStorage } from '../../adapters/memory/index.ts';
import { withValidation } from '../_openapi.ts';
import { manualClock } from '../_setup.ts';
import { type InProcessServer, startInProcessServer } from '../_in-process.ts';

const ids = suite('request ids over HTTP');
let server: InProcessServer | undefined;

ids.after.each(async () => {
  await server?.close();
  server = undefined;
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

ids('a well-formed X-Request-Id is echoed, on successes, errors and probes alike', async () => {
  server = await withValidation(await startInProcessServer());
  for (const id of ['a', 'req-42', 'Root:1-5759e988-bd862e3fe1be46a994272793', 'svc.edge:01_AB-cd', 'x'.repeat(128)]) {
    for (const path of ['/api/v1/pricing', '/nope', '/healthz']) {
      const answer = await server.request({ path, headers: { 'x-request-id': id } });
      assert.is(answer.headers['x-request-id'], id, `${path} ${id}`);
    }
  }
});

ids('a missing, empty, too long or unsafe X-Request-Id is replaced by a fresh UUID', async () => {
  server = await withValidation(await startInProcessServer());
  const seen = new Set<string>();
  for (
    const headers of [
      {},
      { 'x-request-id': '' },
      { 'x-request-id': 'x'.repeat(129) },
      { 'x-request-id': 'has space' },
      { 'x-request-id': 'new\\nline' },
      { 'x-request-id': '"quoted"' },
      { 'x-request-id': 'Root=1-5759e988' },
      { 'x-request-id': 'ünï' },
    ]
  ) {
    const answer = await server.request({ path: '/api/v1/version', headers });
    const id = answer.headers['x-request-id']!;
    assert.match(id, UUID, JSON.stringify(headers));
    seen.add(id);
  }
  assert.is(seen.size, 8, 'every generated id is new');
});

ids('error bodies stay exactly {code, message, resolution}, 429 included', async () => {
  server = await startInProcessServer({ rateLimit: { name: 'public-api', limit: 1, windowSeconds: 60 } });
  const from = '127.0.4.1';
  await server.request({ path: '/api/v1/pricing', from });
  const limited = await server.request({ path: '/api/v1/pricing', from, headers: { 'x-request-id': 'over-quota' } });
  assert.is(limited.status, 429);
  assert.is(limited.headers['x-request-id'], 'over-quota');
  assert.equal(Object.keys(limited.json() as object), ['code', 'message', 'resolution']);
});

ids('the log line of a 500 carries the request id, and the body does not', async () => {
  const clock = manualClock();
  const storage = createMemoryStorage({ clock });
  storage.roadmap.listRoadmap = () => {
    throw new Error('disk on fire');
  };
  server = await startInProcessServer({ storage, clock });
  const failed = await server.request({ path: '/api/v1/roadmap', headers: { 'x-request-id': 'trace-500' } });
  assert.is(failed.status, 500);
  assert.is(failed.headers['x-request-id'], 'trace-500');
  assert.equal(failed.json(), {
    code: 'internal_error',
    message: 'The server failed to handle the request.',
    resolution: 'Retry later; if the problem persists, contact support.',
  });
  const line = server.logger.lines.find((l) => l.message === 'unhandled error');
  assert.is(line?.fields?.['requestId'], 'trace-500');
  assert.is(line?.fields?.['path'], '/api/v1/roadmap');
});

ids.run();
