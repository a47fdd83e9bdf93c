/**
 * The purge adapters against stand-ins of their APIs (test/purges/_stand-ins.ts), and the purges of an app
 * whose provider fails (issue 55): the change that stored the new files stands and they are served at
 * once; the failed purge is counted, logged and retried on its schedule, with the app's injected clock
 * (each refresh starts what is due); a provider that stays down is given up with an error line.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createCloudflarePurge, createFastlyPurge } from '../../adapters/cache-purge/index.ts';
import { createMemoryStorage } from '../../adapters/memory/index.ts';
import { generateSigningKey } from '../../core/licensing/license.ts';
import type { CachePurge } from '../../core/ports/cache-purge.ts';
import type { AppEvent } from '../../core/ports/ports.ts';
import { PURGE_RETRY_SCHEDULE_MS } from '../../core/updates/cache-purges.ts';
import { buildRoot, createTufSigner, envelopeText, expiresMs, signEnvelope } from '../../core/tuf/index.ts';
import { bodyText, coreRequest, createTestApp, manualClock } from '../_setup.ts';
import { freePort } from '../_spawn.ts';
import { startCloudflare, startFastly } from './_stand-ins.ts';

const DAY = 86_400_000;
const ZONE = '023e105f4ecef8ad9ca31a8372d0c353';
const SERVICE = 'SU1Z0isxPaozGVKXdv0eY';
const TOKEN = 'purge-token-0123456789';
const signal = () => AbortSignal.timeout(5000);

const test = suite('cache purges through the CDN APIs');

test('Cloudflare: one POST to the zone with the bearer token and the tags; a refusal names its status and errors, never the token', async () => {
  const api = await startCloudflare(ZONE, TOKEN);
  try {
    await createCloudflarePurge({ zoneId: ZONE, token: TOKEN, apiBase: api.apiBase }).purge(['updates:stable'], signal());
    assert.is(api.requests.length, 1);
    const [sent] = api.requests;
    assert.is(sent!.method, 'POST');
    assert.is(sent!.path, `/client/v4/zones/${ZONE}/purge_cache`);
    assert.is(sent!.headers['authorization'], `Bearer ${TOKEN}`);
    assert.is(sent!.headers['content-type'], 'application/json');
    assert.equal(JSON.parse(sent!.body), { tags: ['updates:stable'] });
    const wrong = createCloudflarePurge({ zoneId: ZONE, token: 'another-token', apiBase: api.apiBase });
    const error = await wrong.purge(['updates:stable'], signal()).then(() => null, (failure: Error) => failure);
    assert.is(error?.message, 'cloudflare purge_cache: 403 Forbidden: 10000 Authentication error');
  } finally {
    await api.close();
  }
});

test('Fastly: a soft purge of the surrogate keys with Fastly-Key; a wrong key is refused with its message', async () => {
  const api = await startFastly(SERVICE, TOKEN);
  try {
    await createFastlyPurge({ serviceId: SERVICE, token: TOKEN, apiBase: api.apiBase }).purge(['updates:stable', 'updates:beta'], signal());
    const [sent] = api.requests;
    assert.is(sent!.method, 'POST');
    assert.is(sent!.path, `/service/${SERVICE}/purge`);
    assert.is(sent!.headers['fastly-key'], TOKEN);
    assert.is(sent!.headers['fastly-soft-purge'], '1');
    assert.equal(JSON.parse(sent!.body), { surrogate_keys: ['updates:stable', 'updates:beta'] });
    const wrong = createFastlyPurge({ serviceId: SERVICE, token: 'another-token', apiBase: api.apiBase });
    const error = await wrong.purge(['updates:stable'], signal()).then(() => null, (failure: Error) => failure);
    assert.is(error?.message, 'fastly purge: 401 Unauthorized: Provided credentials are missing or invalid');
  } finally {
    await api.close();
  }
});

/** An app that signs the stable channel's files, purging through `purge`, with its clock and what it counted. */
async function signingApp(purge: CachePurge) {
  const start = Math.floor(Date.now() / 1000) * 1000;
  const clock = manualClock(start);
  const storage = createMemoryStorage({ clock });
  const online = await createTufSigner(await generateSigningKey());
  const rootKey = await createTufSigner(await generateSigningKey());
  const root = await buildRoot({ version: 1, expires: start + 365 * DAY, rootKeys: [rootKey.key], rootThreshold: 1, onlineKey: online.key });
  const text = envelopeText(await signEnvelope(root, [rootKey]));
  await storage.change(async (tx) =>
    void (await tx.updateFiles.putUpdateFile({ channel: 'stable', role: 'root', version: 1, text, storedAt: start, expiresAt: expiresMs(root.expires) }))
  );
  const counted: AppEvent[] = [];
  const made = await createTestApp({ storage, clock, observer: { count: (event) => void counted.push(event) }, updates: { signer: online, purge } });
  /** A refresh, as the standalone server's loop makes each second, and the purges it started. */
  const refresh = async () => {
    await made.app.refreshReleases();
    await made.app.purgesSettled();
  };
  const publish = async (version: string) => {
    await storage.change(async (tx) => {
      await tx.releases.publishRelease({
        version,
        msiUrl: `https://downloads.example.com/${version}.msi`,
        notesUrl: null,
        rolloutBasisPoints: 10000,
        publishedAt: clock.now(),
        sha256: 'ab'.repeat(32),
        size: 4096,
      });
    });
    await refresh();
  };
  const served = async () => {
    const answer = await made.app.handle(coreRequest({ path: '/updates/stable/timestamp.json' }));
    return (JSON.parse(bodyText(answer)) as { signed: { version: number } }).signed.version;
  };
  const lines = (message: string) => made.logger.lines.filter((line) => line.message === message);
  /** Another instance on the same storage, clock and online key. */
  const another = () => createTestApp({ storage, clock, updates: { signer: online, purge } });
  return { ...made, storage, clock, counted, refresh, publish, served, lines, another };
}

test('a purge answered 500 then 200: the new files are served at once, the failure counted and logged, the purge retried after 1 s and made again after 2 s', async () => {
  const api = await startCloudflare(ZONE, TOKEN);
  try {
    const app = await signingApp(createCloudflarePurge({ zoneId: ZONE, token: TOKEN, apiBase: api.apiBase }));
    api.failNext(1);
    await app.publish('2.7.0');
    const stored = (await app.storage.updateFiles.newestUpdateFile('stable', 'timestamp'))!.version;
    assert.is(await app.served(), stored, 'the change stands and is served, whatever the purge');
    assert.is(api.requests.length, 1);
    assert.equal(app.counted.filter((event) => event.startsWith('cache_purge')), ['cache_purge_failed']);
    const [failed] = app.lines('cache purge failed, will retry');
    assert.equal(failed!.fields, {
      channel: 'stable',
      tags: ['updates:stable'],
      purge: 'cloudflare',
      attempt: 1,
      error: 'cloudflare purge_cache: 500 Internal Server Error: 10000 Internal error',
      nextAttemptAt: new Date(app.clock.now() + 1000).toISOString(),
    });
    await app.refresh();
    assert.is(api.requests.length, 1, 'not before its retry is due');
    app.clock.advance(1000);
    await app.refresh();
    assert.is(api.requests.length, 2);
    assert.equal(app.lines('cache purged').map((line) => line.fields?.['attempt']), [2]);
    app.clock.advance(1000);
    await app.refresh();
    assert.is(api.requests.length, 3, 'once more, 2 s after the change, for the instances that read the files later');
    app.clock.advance(60_000);
    await app.refresh();
    assert.is(api.requests.length, 3, 'and then no more');
    assert.equal(app.counted.filter((event) => event.startsWith('cache_purge')), ['cache_purge_failed']);
    assert.equal(api.requests.map((request) => JSON.parse(request.body)), Array(3).fill({ tags: ['updates:stable'] }));
  } finally {
    await api.close();
  }
});

test('two instances refreshing at once after a change: the one whose change committed purges, once (and once again 2 s on)', async () => {
  const api = await startCloudflare(ZONE, TOKEN);
  try {
    const app = await signingApp(createCloudflarePurge({ zoneId: ZONE, token: TOKEN, apiBase: api.apiBase }));
    const other = await app.another();
    await app.storage.change(async (tx) => {
      await tx.releases.publishRelease({
        version: '2.7.0',
        msiUrl: 'https://downloads.example.com/2.7.0.msi',
        notesUrl: null,
        rolloutBasisPoints: 10000,
        publishedAt: app.clock.now(),
        sha256: 'ab'.repeat(32),
        size: 4096,
      });
    });
    await Promise.all([app.app.refreshReleases(), other.app.refreshReleases()]);
    await Promise.all([app.app.purgesSettled(), other.app.purgesSettled()]);
    assert.is(api.requests.length, 1, 'one change, one purge');
    app.clock.advance(2000);
    await Promise.all([app.refresh(), other.app.refreshReleases().then(() => other.app.purgesSettled())]);
    assert.is(api.requests.length, 2);
  } finally {
    await api.close();
  }
});

test('a newer change while a purge waits for its retry: one purge for both, the newer one', async () => {
  const api = await startCloudflare(ZONE, TOKEN);
  try {
    const app = await signingApp(createCloudflarePurge({ zoneId: ZONE, token: TOKEN, apiBase: api.apiBase }));
    api.failNext(1);
    await app.publish('2.7.0');
    assert.is(app.lines('cache purge failed, will retry').length, 1);
    await app.publish('2.7.1');
    assert.is(api.requests.length, 2, "the newer change's purge at once, not the old one's retry");
    app.clock.advance(1000);
    await app.refresh();
    assert.is(api.requests.length, 2, 'the retry it replaced is not made');
    app.clock.advance(1000);
    await app.refresh();
    assert.is(api.requests.length, 3, "and the newer one's second purge");
    assert.equal(app.lines('cache purged').map((line) => line.fields?.['attempt']), [1, 1]);
  } finally {
    await api.close();
  }
});

test('a purge whose API is down: retried on its schedule, then given up with an error line and a count; the change stands', async () => {
  const down = `http://127.0.0.1:${await freePort()}`;
  const app = await signingApp(createFastlyPurge({ serviceId: SERVICE, token: TOKEN, apiBase: down }));
  await app.publish('2.7.0');
  const stored = (await app.storage.updateFiles.newestUpdateFile('stable', 'timestamp'))!.version;
  for (const wait of PURGE_RETRY_SCHEDULE_MS) {
    app.clock.advance(wait);
    await app.refresh();
  }
  const failures = app.lines('cache purge failed, will retry');
  assert.equal(failures.map((line) => line.fields?.['attempt']), [1, 2, 3, 4, 5]);
  assert.match(String(failures[0]!.fields?.['error']), /^fastly purge: no answer from http:\/\/127\.0\.0\.1:\d+ \(.*ECONNREFUSED.*\)$/);
  const [givenUp] = app.lines('cache purge given up: caches keep the old files until their max-age (or their own TTL)');
  assert.is(givenUp!.level, 'error');
  assert.is(givenUp!.fields?.['attempt'], 6);
  assert.equal(app.counted.filter((event) => event.startsWith('cache_purge')), [...Array(6).fill('cache_purge_failed'), 'cache_purge_given_up']);
  assert.is(await app.served(), stored, 'the files of the change are served');
  app.clock.advance(DAY / 24);
  await app.refresh();
  assert.is(app.lines('cache purge failed, will retry').length, 5, 'nothing more is tried');
  assert.not.ok(JSON.stringify(app.logger.lines).includes(TOKEN), 'no line names the token');
});

test.run();
