/**
 * A request with no client address (issue 47): by default it is served as one shared client, with one
 * warning naming the fix and a count in the metrics; with `clientAddress: 'required'` it is answered 500
 * client_address_missing. Probes never need an address. In process through app.handle.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createMetricsObserver, createRegistry } from '../../adapters/prometheus/index.ts';
import { MISSING_ADDRESS_FIX, runtimeOf } from '../../core/clients/client-address.ts';
import { bodyJson, coreRequest, createTestApp } from '../_setup.ts';

const SHARED_WARNING = 'a request came with no client address: every such request is served as one client: one rate-limit quota, one roadmap ' +
  "voter (clientAddress: 'required' answers 500 instead). Said once; each one is counted (client_address_missing)";

/** The app with Prometheus metrics, and the value of the new counter. */
async function metered(options: Parameters<typeof createTestApp>[0] = {}) {
  const registry = createRegistry();
  const t = await createTestApp({ ...options, observer: createMetricsObserver(registry) });
  const missing = () => /^site_api_requests_without_client_address_total (\d+)$/m.exec(registry.render())?.[1];
  return { ...t, missing };
}

test('by default, requests without an address share one quota and one voter, and the first one is warned about once', async () => {
  const t = await metered();
  assert.is(t.missing(), '0');
  const first = await t.app.handle(coreRequest({ path: '/api/v1/pricing', clientIp: '', headers: { 'x-request-id': 'r1' } }));
  const second = await t.app.handle(coreRequest({ path: '/api/v1/pricing', clientIp: '' }));
  assert.equal([first.status, first.headers['ratelimit-remaining']], [200, '119']);
  assert.equal([second.status, second.headers['ratelimit-remaining']], [200, '118']);
  // The second visitor's vote takes the first one's back: they are one voter.
  const vote = () => t.app.handle(coreRequest({ method: 'POST', path: '/api/v1/roadmap', clientIp: '', json: { featureId: 1 } }));
  assert.equal(bodyJson(await vote()), { voted: true, vote_count: 1 });
  assert.equal(bodyJson(await vote()), { voted: false, vote_count: 0 });
  // A client with an address has a quota of its own.
  const other = await t.app.handle(coreRequest({ path: '/api/v1/pricing', clientIp: '203.0.113.7' }));
  assert.is(other.headers['ratelimit-remaining'], '119');
  assert.equal(t.logger.lines, [
    { level: 'warn', message: SHARED_WARNING, fields: { requestId: 'r1', path: '/api/v1/pricing', fix: MISSING_ADDRESS_FIX.node } },
  ]);
  assert.is(t.missing(), '4');
});

test("clientAddress: 'required' answers 500 client_address_missing with CORS but no quota, and serves clients with an address", async () => {
  const t = await metered({ clientAddress: 'required', corsOrigins: ['https://www.example.com'] });
  const headers = { origin: 'https://www.example.com', 'x-request-id': 'r2' };
  for (const path of ['/api/v1/pricing', '/api/v1/nope']) {
    const refused = await t.app.handle(coreRequest({ path, clientIp: '', headers }));
    assert.is(refused.status, 500);
    assert.equal(bodyJson(refused), {
      code: 'client_address_missing',
      message: 'The server was given no client address for this request, so it cannot tell this client from any other; it is set to refuse such requests.',
      resolution: "Nothing is wrong with the request: the server cannot tell its clients apart. Retry later; if it persists, tell the site's operator.",
    });
    assert.is(refused.headers['content-type'], 'application/json');
    assert.is(refused.headers['access-control-allow-origin'], 'https://www.example.com');
    assert.is(refused.headers['x-request-id'], 'r2');
    assert.is(refused.headers['cache-control'], 'no-store');
    assert.is(refused.headers['ratelimit-remaining'], undefined);
  }
  const served = await t.app.handle(coreRequest({ path: '/api/v1/pricing', clientIp: '203.0.113.7' }));
  assert.equal([served.status, served.headers['ratelimit-remaining']], [200, '119']);
  assert.equal(t.logger.lines.map((line) => [line.level, line.message]), [
    [
      'warn',
      "a request came with no client address: each is answered 500 client_address_missing (clientAddress: 'required'). Said once; each one is counted (client_address_missing)",
    ],
  ]);
  assert.is(t.missing(), '2');
});

test('the probes answer without an address, uncounted, whatever the setting', async () => {
  const t = await metered({ clientAddress: 'required' });
  for (const path of ['/healthz', '/readyz']) assert.is((await t.app.handle(coreRequest({ path, clientIp: '' }))).status, 200);
  assert.equal(t.logger.lines, []);
  assert.is(t.missing(), '0');
});

test('the fix named is the one of the runtime the app runs on', () => {
  assert.is(runtimeOf(), 'node');
  assert.is(runtimeOf({ navigator: { userAgent: 'Cloudflare-Workers' } }), 'workers');
  assert.is(runtimeOf({ Deno: {} }), 'deno');
  assert.is(runtimeOf({ Bun: {} }), 'bun');
  assert.is(runtimeOf({ navigator: { userAgent: 'Node.js/22' } }), 'node');
  assert.match(MISSING_ADDRESS_FIX.node, 'TRUST_X_REAL_IP=1');
  assert.match(MISSING_ADDRESS_FIX.workers, 'CF-Connecting-IP');
});

test.run();
