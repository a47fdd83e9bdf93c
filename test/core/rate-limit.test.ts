import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createMemoryRateLimitStore } from '../../adapters/memory/rate-limits.ts';
import { bodyJson, coreRequest, createTestApp, manualClock } from '../_setup.ts';

const limit = suite('rate limit');

const headers = (remaining: number, reset: number) => ({
  ratelimit: `"public-api";r=${remaining};t=${reset}`,
  'ratelimit-policy': '"public-api";q=120;w=60',
  'ratelimit-limit': '120',
  'ratelimit-remaining': String(remaining),
  'ratelimit-reset': String(reset),
});
const pick = (h: Record<string, string>) => Object.fromEntries(Object.keys(headers(0, 0)).map((name) => [name, h[name]]));

limit('120 requests pass with counting headers; the 121st is 429 with Retry-After; the window resets', async () => {
  const t = await createTestApp();
  const get = () => t.app.handle(coreRequest({ path: '/api/v1/version' }));
  const first = await get();
  assert.equal(pick(first.headers), headers(119, 60));
  t.clock.advance(10_500);
  for (let i = 2; i < 120; i++) assert.is((await get()).status, 200);
  const last = await get();
  assert.is(last.status, 200);
  assert.equal(pick(last.headers), headers(0, 50));
  const limited = await get();
  assert.is(limited.status, 429);
  assert.equal(pick(limited.headers), headers(0, 50));
  assert.is(limited.headers['retry-after'], '50');
  assert.is(limited.headers['content-type'], 'application/json');
  assert.equal(bodyJson(limited), {
    code: 'rate_limited',
    message: 'Too many requests: the limit is 120 per 60 seconds per client.',
    resolution: 'Wait 50 seconds (see Retry-After), then retry.',
  });
  t.clock.advance(49_499);
  const stillLimited = await get();
  assert.is(stillLimited.status, 429);
  assert.is(stillLimited.headers['retry-after'], '1');
  t.clock.advance(1);
  const reset = await get();
  assert.is(reset.status, 200);
  assert.equal(pick(reset.headers), headers(119, 60));
  assert.is(reset.headers['retry-after'], undefined);
});

limit('every path counts: errors, 404s and the discovery documents', async () => {
  const t = await createTestApp();
  const paths = ['/nope', '/openapi.json', '/llms.txt', '/api/v1/pricing'];
  for (let i = 0; i < 120; i++) await t.app.handle(coreRequest({ path: paths[i % 4]! }));
  for (const path of [...paths, '/api/v1/roadmap']) {
    const response = await t.app.handle(coreRequest({ path }));
    assert.is(response.status, 429, path);
    assert.is((bodyJson(response) as { code: string }).code, 'rate_limited');
  }
  const posted = await t.app.handle(coreRequest({ method: 'POST', path: '/api/v1/feedback', json: { description: 'x' } }));
  assert.is(posted.status, 429);
  assert.is(t.storage.feedback.length, 0);
  // The rest of the spec's endpoints list 429 too; a refused vote or checkout changes nothing.
  const refused = [
    coreRequest({ path: '/api/v1/download', headers: { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64)' } }),
    coreRequest({ method: 'POST', path: '/api/v1/roadmap', json: { featureId: 1 } }),
    coreRequest({ method: 'POST', path: '/api/v1/checkout/create', json: {} }),
    coreRequest({ path: '/api/v1/checkout/status', query: 'session_id=cs_sim_x' }),
  ];
  for (const request of refused) {
    const response = await t.app.handle(request);
    assert.is(response.status, 429, request.path);
    assert.is((bodyJson(response) as { code: string }).code, 'rate_limited');
  }
  const views = bodyJson(await t.app.handle(coreRequest({ path: '/api/v1/roadmap', clientIp: '198.51.100.77' }))) as {
    features: { id: number; vote_count: number }[];
  };
  assert.is(views.features.find((f) => f.id === 1)!.vote_count, 0);
});

limit('clients are counted apart; an IPv6 /64 is one client', async () => {
  const t = await createTestApp();
  for (let i = 0; i < 120; i++) await t.app.handle(coreRequest({ path: '/llms.txt', clientIp: '2001:db8:a:b::1' }));
  const sameNetwork = await t.app.handle(coreRequest({ path: '/llms.txt', clientIp: '2001:db8:a:b:c:d:e:f' }));
  assert.is(sameNetwork.status, 429);
  const otherNetwork = await t.app.handle(coreRequest({ path: '/llms.txt', clientIp: '2001:db8:a:c::1' }));
  assert.equal(pick(otherNetwork.headers), headers(119, 60));
  const ipv4 = await t.app.handle(coreRequest({ path: '/llms.txt', clientIp: '192.0.2.1' }));
  assert.equal(pick(ipv4.headers), headers(119, 60));
});

limit('a failing counter store lets requests through with a full quota and logs once a minute', async () => {
  const broken = {
    hit: () => {
      throw new Error('store down');
    },
  };
  const t = await createTestApp({ rateLimitStore: broken });
  const first = await t.app.handle(coreRequest({ path: '/api/v1/version' }));
  await t.app.handle(coreRequest({ path: '/api/v1/version' }));
  assert.is(first.status, 200);
  assert.equal(pick(first.headers), headers(120, 60));
  assert.equal(t.logger.lines, [
    { level: 'error', message: 'rate limit store unavailable; letting requests through', fields: { error: 'Error: store down' } },
  ]);
  t.clock.advance(60_000);
  await t.app.handle(coreRequest({ path: '/api/v1/version' }));
  assert.is(t.logger.lines.length, 2);
});

limit('an asynchronous store that rejects also fails open', async () => {
  const t = await createTestApp({ rateLimitStore: { hit: () => Promise.reject(new Error('timeout')) } });
  const response = await t.app.handle(coreRequest({ path: '/api/v1/version' }));
  assert.is(response.status, 200);
  assert.is(response.headers['ratelimit-remaining'], '120');
});

limit('the memory store forgets idle clients: 100,000 addresses leave nothing behind a window later', () => {
  const clock = manualClock();
  const store = createMemoryRateLimitStore(clock);
  for (let i = 0; i < 100_000; i++) store.hit(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, 60_000);
  assert.is(store.size, 100_000);
  clock.advance(60_000);
  for (let i = 0; i < 2_000; i++) store.hit('192.0.2.1', 60_000);
  assert.is(store.size, 1);
});

limit('the memory store holds at most maxClients windows, dropping the oldest', () => {
  const clock = manualClock();
  const store = createMemoryRateLimitStore(clock, 3);
  for (const key of ['a', 'b', 'c', 'd']) store.hit(key, 60_000);
  assert.is(store.size, 3);
  assert.equal(store.hit('a', 60_000), { count: 1, resetMs: 60_000 });
  assert.equal(store.hit('d', 60_000), { count: 2, resetMs: 60_000 });
});

limit('the memory store counts every key apart, whatever its spelling (IPv4, high IPv4, IPv6 /64, a number)', () => {
  const store = createMemoryRateLimitStore(manualClock());
  const keys = ['0.0.0.1', '1', '255.255.255.255', '-1', '2001:db8::/64', '203.0.113.7'];
  for (const key of keys) store.hit(key, 60_000);
  assert.equal(store.hit('255.255.255.255', 60_000), { count: 2, resetMs: 60_000 });
  assert.equal(store.hit('0.0.0.1', 60_000), { count: 2, resetMs: 60_000 });
  assert.equal(store.hit('1', 60_000), { count: 2, resetMs: 60_000 });
  assert.is(store.size, keys.length);
});

limit('align takes the shared count and end, for a client seen or not', () => {
  const clock = manualClock();
  const store = createMemoryRateLimitStore(clock);
  store.hit('203.0.113.1', 60_000);
  store.align('203.0.113.1', 7, 20_000);
  store.align('203.0.113.2', 9, 10_000);
  assert.equal(store.hit('203.0.113.1', 60_000), { count: 8, resetMs: 20_000 });
  assert.equal(store.hit('203.0.113.2', 60_000), { count: 10, resetMs: 10_000 });
  store.align('203.0.113.1', 3, 20_000);
  assert.equal(store.hit('203.0.113.1', 60_000), { count: 9, resetMs: 20_000 }, 'a lower shared count never lowers its own');
});

limit.run();
