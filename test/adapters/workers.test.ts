/**
 * The Workers binding in-process (the Worker under workerd is the contract suite's smoke target): the
 * client address is CF-Connecting-IP, and a Worker whose setup fails still answers every request with a
 * JSON 500 that is counted against the client's quota and carries the rate-limit headers and X-Request-Id.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createWorker } from '../../adapters/workers/index.ts';
import type { App } from '../../core/app.ts';
import { createTestApp, manualClock } from '../_setup.ts';

const request = (ip: string, path = '/api/v1/version') =>
  new Request(`https://api.sheets.test${path}`, { headers: { 'cf-connecting-ip': ip, 'x-forwarded-for': '198.51.100.9' } });

async function body(response: Response): Promise<unknown> {
  return JSON.parse(await response.text());
}

/** Every header of an answer, by lower-case name. */
function allHeaders(response: Response): Record<string, string> {
  const all: Record<string, string> = {};
  response.headers.forEach((value, name) => void (all[name] = value));
  return all;
}

test('the client is CF-Connecting-IP, never X-Forwarded-For', async () => {
  const { app } = await createTestApp();
  const worker = createWorker(() => app);
  assert.is((await worker.fetch(request('203.0.113.1'), {})).headers.get('ratelimit-remaining'), '119');
  assert.is((await worker.fetch(request('203.0.113.1'), {})).headers.get('ratelimit-remaining'), '118');
  assert.is((await worker.fetch(request('203.0.113.2'), {})).headers.get('ratelimit-remaining'), '119');
});

test('a failed setup answers 500 internal_error with the rate-limit, security and request-id headers, and nothing of the fault', async () => {
  const reported: unknown[] = [];
  const worker = createWorker<{ PRODUCT_VERSION?: string }>(
    () => Promise.reject(new Error('PRODUCT_VERSION is missing at /srv/worker.js:12')),
    { onSetupError: (error) => reported.push(error), clock: manualClock() },
  );
  const traced = request('203.0.113.3');
  traced.headers.set('x-request-id', 'edge-trace.42:a_b-c');
  const response = await worker.fetch(traced, {});
  assert.is(response.status, 500);
  assert.equal(allHeaders(response), {
    'cache-control': 'no-store',
    'content-type': 'application/json',
    ratelimit: '"public-api";r=119;t=60',
    'ratelimit-limit': '120',
    'ratelimit-policy': '"public-api";q=120;w=60',
    'ratelimit-remaining': '119',
    'ratelimit-reset': '60',
    'x-content-type-options': 'nosniff',
    'x-request-id': 'edge-trace.42:a_b-c',
  });
  assert.equal(await body(response), {
    code: 'internal_error',
    message: 'The server failed to handle the request.',
    resolution: 'Retry later; if the problem persists, contact support.',
  });
  assert.is(reported.length, 1);

  // An id that is not safe to echo (here a space) is replaced by a fresh UUID, as on every other answer.
  const unsafe = request('203.0.113.3');
  unsafe.headers.set('x-request-id', 'two words');
  const fresh = await worker.fetch(unsafe, {});
  await fresh.body?.cancel();
  assert.match(fresh.headers.get('x-request-id') ?? '', /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  const other = await worker.fetch(request('203.0.113.3'), {});
  await other.body?.cancel();
  assert.not.equal(other.headers.get('x-request-id'), fresh.headers.get('x-request-id'));
});

test('a failing setup is retried on each request; past the quota the client gets 429, then the app once setup works', async () => {
  const clock = manualClock();
  let broken = true;
  let setups = 0;
  const { app } = await createTestApp();
  const setup = () => (setups++, broken ? Promise.reject(new Error('no content yet')) : app);
  const worker = createWorker(setup, { onSetupError: () => undefined, clock });
  for (let i = 1; i <= 120; i++) {
    const response = await worker.fetch(request('203.0.113.4'), {});
    await response.body?.cancel();
    assert.is(response.status, 500, `request ${i}`);
    assert.is(response.headers.get('ratelimit-remaining'), String(120 - i));
  }
  const limited = await worker.fetch(request('203.0.113.4'), {});
  assert.is(limited.status, 429);
  assert.is(limited.headers.get('retry-after'), '60');
  assert.is(limited.headers.get('ratelimit-remaining'), '0');
  assert.match(limited.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
  assert.equal(await body(limited), {
    code: 'rate_limited',
    message: 'Too many requests: the limit is 120 per 60 seconds per client.',
    resolution: 'Wait 60 seconds (see Retry-After), then retry.',
  });
  assert.is(setups, 121);
  broken = false;
  const served = await worker.fetch(request('203.0.113.4'), {});
  assert.is(served.status, 200);
  assert.equal(await body(served), {
    version: '2.4.1',
    downloadUrl: 'https://downloads.example.com/legacy-sheet-converter/LegacySheetConverter-2.4.1-x64.msi',
  });
});

test('a setup that throws instead of rejecting is answered the same way', async () => {
  const worker = createWorker((): App => {
    throw new Error('bad key');
  }, { onSetupError: () => undefined });
  const response = await worker.fetch(request('203.0.113.5'), {});
  assert.is(response.status, 500);
  assert.is(response.headers.get('ratelimit-remaining'), '119');
});

test.run();
