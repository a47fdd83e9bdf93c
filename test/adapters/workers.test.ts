/**
 * The Workers binding in-process (the Worker under workerd is the contract suite's smoke target): the
 * client address is CF-Connecting-IP, and a Worker whose setup fails still answers every request with a
 * JSON 500 that is counted against the client's quota and carries the rate-limit headers.
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

test('the client is CF-Connecting-IP, never X-Forwarded-For', async () => {
  const { app } = await createTestApp();
  const worker = createWorker(() => app);
  assert.is((await worker.fetch(request('203.0.113.1'), {})).headers.get('ratelimit-remaining'), '119');
  assert.is((await worker.fetch(request('203.0.113.1'), {})).headers.get('ratelimit-remaining'), '118');
  assert.is((await worker.fetch(request('203.0.113.2'), {})).headers.get('ratelimit-remaining'), '119');
});

test('a failed setup answers 500 internal_error with the rate-limit headers, and nothing of the fault', async () => {
  const reported: unknown[] = [];
  const worker = createWorker<{ PRODUCT_VERSION?: string }>(
    () => Promise.reject(new Error('PRODUCT_VERSION is missing at /srv/worker.js:12')),
    { onSetupError: (error) => reported.push(error), clock: manualClock() },
  );
  const response = await worker.fetch(request('203.0.113.3'), {});
  assert.is(response.status, 500);
  assert.is(response.headers.get('content-type'), 'application/json');
  assert.is(response.headers.get('cache-control'), 'no-store');
  assert.is(response.headers.get('x-content-type-options'), 'nosniff');
  assert.is(response.headers.get('ratelimit'), '"public-api";r=119;t=60');
  assert.is(response.headers.get('ratelimit-policy'), '"public-api";q=120;w=60');
  assert.is(response.headers.get('ratelimit-limit'), '120');
  assert.is(response.headers.get('ratelimit-remaining'), '119');
  assert.is(response.headers.get('ratelimit-reset'), '60');
  assert.equal(await body(response), {
    code: 'internal_error',
    message: 'The server failed to handle the request.',
    resolution: 'Retry later; if the problem persists, contact support.',
  });
  assert.is(reported.length, 1);
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
  assert.equal(await body(limited), {
    code: 'rate_limited',
    message: 'Too many requests: the limit is 120 per 60 seconds per client.',
    resolution: 'Wait 60 seconds (see Retry-After), then retry.',
  });
  assert.is(setups, 121);
  broken = false;
  const served = await worker.fetch(request('203.0.113.4'), {});
  assert.is(served.status, 200);
  assert.equal(await body(served), { version: '2.4.1', downloadUrl: 'https://downloads.example.com/legacy-sheet-converter/LegacySheetConverter-2.4.1-x64.msi' });
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
