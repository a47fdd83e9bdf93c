/**
 * The standalone Worker's wiring (server/worker-app.ts), in-process: which config file settings and
 * Worker variables it honours, the caps of its memory storage, and what a missing PRODUCT_VERSION does.
 * The same Worker runs under workerd in the contract suite.
 */
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { EXAMPLE_CONFIG } from '../../server/config.ts';
import { createMemoryStorage } from '../../adapters/memory/index.ts';
import { createSiteWorker } from '../../server/worker-app.ts';
import { manualClock } from '../_setup.ts';
import { storedFile } from '../_update-files.ts';

const example = JSON.parse(readFileSync(EXAMPLE_CONFIG, 'utf8')) as Record<string, unknown>;
const get = (path: string) => new Request(`https://api.sheets.test${path}`, { headers: { 'cf-connecting-ip': '203.0.113.20' } });

test("the config file's alias deprecation, docs address and public address are honoured", async () => {
  const worker = createSiteWorker({
    ...example,
    publicBaseUrl: 'https://api.sheets.test',
    docsUrl: 'https://git.sheets.test/docs',
    aliasDeprecation: { deprecatedAt: '2027-01-01T00:00:00Z', sunsetAt: '2027-07-01T00:00:00Z' },
  });
  const env = { PRODUCT_VERSION: '2.4.1' };
  const alias = await worker.fetch(get('/api/version'), env);
  assert.is(alias.status, 200);
  assert.is(alias.headers.get('deprecation'), '@1798761600');
  assert.is(alias.headers.get('sunset'), 'Thu, 01 Jul 2027 00:00:00 GMT');
  assert.is(alias.headers.get('link'), '</api/v1/version>; rel="successor-version"');
  const llms = await (await worker.fetch(get('/llms.txt'), env)).text();
  assert.match(llms, '(https://git.sheets.test/docs/errors.md)');
  assert.match(llms, '(https://api.sheets.test/api/v1/pricing)');
});

test("the config file's downloadSources are counted by name, as on the standalone server; others as other", async () => {
  const clock = manualClock();
  const storage = createMemoryStorage({ clock });
  const worker = createSiteWorker({ ...example, downloadSources: ['newsletter'] }, { storage, clock });
  const env = { PRODUCT_VERSION: '2.4.1' };
  for (const source of ['newsletter', 'newsletter', 'forum']) {
    assert.is((await worker.fetch(get(`/api/v1/download?source=${source}&force=1`), env)).status, 302);
  }
  const today = Math.floor(clock.now() / 86_400_000);
  // The counts are written at most every 10 s, by a request.
  clock.advance(10_000);
  await (await worker.fetch(get('/api/v1/version'), env)).text();
  await new Promise((resolve) => setImmediate(resolve));
  const sources = (await storage.usage.list(today - 1, today + 1)).filter((row) => row.kind === 'download').map((row) => `${row.source} ${row.count}`);
  assert.equal(sources.sort(), ['newsletter 2', 'other 1']);
});

test("the Worker serves the update files a server stored, reading new ones at most once a second after an answer, with the config's max-age", async () => {
  const clock = manualClock();
  const storage = createMemoryStorage({ clock });
  const file = (role: 'root' | 'timestamp', version: number) => storedFile(role, version, {}, clock.now());
  await storage.change(async (tx) => {
    await tx.updateFiles.putUpdateFile(file('root', 1));
    await tx.updateFiles.putUpdateFile(file('timestamp', 1));
  });
  const worker = createSiteWorker({ ...example, updates: { timestampMaxAgeSeconds: 30 } }, { storage, clock });
  const env = { PRODUCT_VERSION: '2.4.1' };
  const pending: Promise<unknown>[] = [];
  const ctx = { waitUntil: (promise: Promise<unknown>) => void pending.push(promise) };
  const timestamp = async () => {
    const answer = await worker.fetch(get('/updates/stable/timestamp.json'), env, ctx);
    await Promise.all(pending.splice(0));
    return { version: (JSON.parse(await answer.text()) as { signed: { version: number } }).signed.version, cacheControl: answer.headers.get('cache-control') };
  };
  assert.equal(await timestamp(), { version: 1, cacheControl: 'public, max-age=30' });
  await storage.change(async (tx) => void (await tx.updateFiles.putUpdateFile(file('timestamp', 2))));
  clock.advance(999);
  assert.is((await timestamp()).version, 1, 'not read again within the second');
  clock.advance(1);
  assert.is((await timestamp()).version, 1, 'read again after this answer');
  assert.is((await timestamp()).version, 2);
});

test("PUBLIC_BASE_URL wins over the config file's address", async () => {
  const worker = createSiteWorker({ ...example, publicBaseUrl: 'https://old.sheets.test' });
  const created = await worker.fetch(new Request('https://api.sheets.test/api/v1/checkout/create', { method: 'POST' }), {
    PRODUCT_VERSION: '2.4.1',
    PUBLIC_BASE_URL: 'https://api.sheets.test',
  });
  const { sessionId, url } = (await created.json()) as { sessionId: string; url: string };
  assert.is(url, `https://api.sheets.test/checkout/simulator/${sessionId}`);
});

test("on memory storage the Worker keeps 16 MiB of feedback, an isolate's cap, not the standalone server's 64 MiB", async () => {
  const worker = createSiteWorker(example);
  const env = { PRODUCT_VERSION: '2.4.1' };
  // Each entry is estimated at 256 + 2 x 5,000 bytes: 1,635 fit in 16 MiB. One client each, to stay in quota.
  const send = (i: number) =>
    worker.fetch(
      new Request('https://api.sheets.test/api/v1/feedback', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'cf-connecting-ip': `10.0.${i >> 8}.${i & 255}` },
        body: JSON.stringify({ description: `${i}`.padEnd(5000, '.') }),
      }),
      env,
    );
  for (let i = 0; i < 1635; i++) {
    const stored = await send(i);
    await stored.body?.cancel();
    if (stored.status !== 201) assert.unreachable(`entry ${i} answered ${stored.status}`);
  }
  const refused = await send(1635);
  assert.is(refused.status, 503);
  assert.is(refused.headers.get('content-type'), 'application/json');
  assert.is(refused.headers.get('ratelimit-remaining'), '119');
  assert.equal(await refused.json(), {
    code: 'storage_full',
    message: "The server's in-memory storage holds the most feedback (16777216 bytes) it may; nothing was stored.",
    resolution: 'Retrying does not help before the server restarts: its in-memory storage keeps these until then. Contact support.',
  });
});

test('without PRODUCT_VERSION every request is a 500 internal_error with the rate-limit headers', async () => {
  const errors: unknown[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => void errors.push(args);
  try {
    const response = await createSiteWorker(example).fetch(get('/api/v1/pricing'), {});
    assert.is(response.status, 500);
    assert.is(response.headers.get('ratelimit-remaining'), '119');
    assert.is(((await response.json()) as { code: string }).code, 'internal_error');
    assert.is(errors.length, 1, 'the failed setup is logged');
  } finally {
    console.error = original;
  }
});

test('DATABASE_SCHEMA with Hyperdrive is refused: 500 internal_error, and the log says what to set instead', async () => {
  const errors: unknown[][] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => void errors.push(args);
  try {
    const env = {
      PRODUCT_VERSION: '2.4.1',
      HYPERDRIVE: { connectionString: 'postgres://site_api@127.0.0.1:9/site' },
      DATABASE_SCHEMA: 'site',
    };
    const response = await createSiteWorker(example).fetch(get('/api/v1/pricing'), env, { waitUntil: () => undefined });
    assert.is(response.status, 500);
    assert.is(((await response.json()) as { code: string }).code, 'internal_error');
    assert.match(String(errors[0]?.[1]), 'DATABASE_SCHEMA is not sent through Hyperdrive: set the search_path of the database role instead');
  } finally {
    console.error = original;
  }
});

for (
  const [name, change, message] of [
    [
      'a body limit over 1 MiB',
      { bodyLimitBytes: 2 * 1024 * 1024 },
      'the bundled config file: field "bodyLimitBytes" Invalid value: Expected <=1048576 but received 2097152',
    ],
    [
      'a CORS origin with a path',
      { corsOrigins: ['https://www.example.com/shop'] },
      'the bundled config file: field "corsOrigins.0" must be "*" or an origin such as https://www.example.com',
    ],
    ['a setting neither knows', { bodyLimit: 2048 }, 'the bundled config file: field "bodyLimit" is not a known setting'],
  ] as const
) {
  test(`the Worker refuses what the standalone server refuses: ${name}`, async () => {
    const errors: unknown[][] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void errors.push(args);
    try {
      const response = await createSiteWorker({ ...example, ...change }).fetch(get('/api/v1/pricing'), { PRODUCT_VERSION: '2.4.1' });
      assert.is(response.status, 500);
      assert.is(((await response.json()) as { code: string }).code, 'internal_error');
      assert.is((errors[0]?.[1] as Error | undefined)?.message, message);
    } finally {
      console.error = original;
    }
  });
}

test.run();
