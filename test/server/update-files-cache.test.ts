/**
 * The update files through a real HTTP cache (issue 54): Debian's varnishd in front of the app on a
 * loopback socket, and tuf-js's own HTTP fetcher as the stock client, pinned to the channel's first root.
 * A second client's timestamp is the cache's copy (the origin is not asked); an unchanged timestamp
 * answers 304 from the cache; a new timestamp reaches clients once the cached copy's max-age has passed
 * (the cache asks the origin only then); the app's pre-install check (a unique query, no-cache) reaches
 * the origin at once and sees a halt the cache does not show yet; and tuf-js refreshes and downloads an
 * installer through the cache and the target's redirect. Varnish runs the VCL of docs/caches/varnish-updates.vcl:
 * with the Varnish purge on (issue 55), a halt reaches a polling client at once although the cached copy is
 * fresh for an hour, and a BAN from an address outside its ACL is refused.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Updater } from 'tuf-js';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createVarnishPurge } from '../../adapters/cache-purge/index.ts';
import { createMemoryStorage } from '../../adapters/memory/index.ts';
import { createNodeListener } from '../../adapters/node/index.ts';
import { generateSigningKey } from '../../core/licensing/license.ts';
import { buildRoot, createTufSigner, envelopeText, expiresMs, type ReleaseCustom, signEnvelope, type TufSigner } from '../../core/tuf/index.ts';
import { startBackgroundLoop } from '../../server/background-loop.ts';
import { createTestApp } from '../_setup.ts';
import { startVarnish, type Varnish } from '../_varnish.ts';

const DAY = 86_400_000;
const MAX_AGE = 2;
const msi = (version: string) => new TextEncoder().encode(`the installer of ${version}\n`.repeat(64));

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

type TestApp = Awaited<ReturnType<typeof createTestApp>>;

interface Context {
  app: TestApp;
  /** The app the origin serves (`app`, or the purge test's). */
  serving: TestApp;
  online: TufSigner;
  storage: ReturnType<typeof createMemoryStorage>;
  origin: Server;
  installers: Server;
  cache: Varnish;
  /** Requests the origin answered, by path. */
  asked: string[];
  rootText: string;
  installerBase: string;
  publish(version: string, extra?: Record<string, unknown>): Promise<void>;
}

const test = suite<Context>('update files through varnish');

test.before(async (context) => {
  const clock = { now: () => Date.now() };
  const storage = createMemoryStorage({ clock });
  context.storage = storage;
  const online = await createTufSigner(await generateSigningKey());
  const rootKey = await createTufSigner(await generateSigningKey());
  const root = await buildRoot({ version: 1, expires: Date.now() + 365 * DAY, rootKeys: [rootKey.key], rootThreshold: 1, onlineKey: online.key });
  context.rootText = envelopeText(await signEnvelope(root, [rootKey]));
  context.online = online;
  await storage.change(async (tx) => {
    await tx.updateFiles.putUpdateFile({
      channel: 'stable',
      role: 'root',
      version: 1,
      text: context.rootText,
      storedAt: Date.now(),
      expiresAt: expiresMs(root.expires),
    });
  });
  context.app = await createTestApp({ storage, clock, updates: { signer: online, timestampMaxAge: MAX_AGE } });
  context.serving = context.app;
  context.asked = [];
  const listeners = new Map<TestApp, ReturnType<typeof createNodeListener>>();
  context.origin = createServer((request, response) => {
    context.asked.push(request.url ?? '');
    const app = context.serving;
    const listener = listeners.get(app) ?? listeners.set(app, createNodeListener(app.app)).get(app)!;
    listener(request, response);
  });
  const originPort = await listen(context.origin);
  const bytes = new Map<string, Uint8Array>();
  context.installers = createServer((request, response) => {
    const body = bytes.get(request.url ?? '');
    response.writeHead(body ? 200 : 404, { 'content-type': 'application/x-msi' }).end(body ?? '');
  });
  context.installerBase = `http://127.0.0.1:${await listen(context.installers)}`;
  context.cache = await startVarnish(originPort, { docsVcl: true });
  context.publish = async (version, extra = {}) => {
    const body = msi(version);
    const path = `/LegacySheetConverter-${version}-x64.msi`;
    bytes.set(path, body);
    await storage.change(async (tx) => {
      await tx.releases.publishRelease({
        version,
        msiUrl: context.installerBase + path,
        notesUrl: null,
        rolloutBasisPoints: 10000,
        publishedAt: Date.now(),
        sha256: createHash('sha256').update(body).digest('hex'),
        size: body.length,
        ...extra,
      });
    });
    await context.serving.app.refreshReleases();
  };
});

test.after(async (context) => {
  await context.cache?.stop();
  context.origin?.close();
  context.installers?.close();
});

const timestampVersion = async (response: Response) => (JSON.parse(await response.text()) as { signed: { version: number } }).signed.version;

test('a second client is served the cached timestamp; an unchanged one answers 304 from the cache', async ({ cache, asked, publish }) => {
  await publish('2.6.2');
  const url = `${cache.url}/updates/stable/timestamp.json`;
  const first = await fetch(url);
  assert.is(first.status, 200);
  assert.is(first.headers.get('cache-control'), `public, max-age=${MAX_AGE}`);
  assert.is(first.headers.get('ratelimit'), null, 'nothing per client in a file a cache keeps');
  assert.is(first.headers.get('cache-tag'), 'updates:stable', 'the tag a purge drops, through the cache');
  assert.is(first.headers.get('surrogate-key'), 'updates:stable');
  const fetchedBefore = asked.filter((path) => path === '/updates/stable/timestamp.json').length;
  const second = await fetch(url);
  assert.is(second.status, 200);
  assert.is(await second.text(), await first.text());
  const hitsOrigin = asked.filter((path) => path === '/updates/stable/timestamp.json').length;
  // Within its max-age the cache answers alone (varnish names two transactions in X-Varnish on a hit); the
  // two fetches are milliseconds apart, so the copy is still fresh.
  assert.ok(Number(second.headers.get('age')) < MAX_AGE, `the second fetch came at age ${second.headers.get('age')}`);
  assert.is(hitsOrigin, fetchedBefore, 'the second client was answered by the cache');
  assert.match(String(second.headers.get('x-varnish')), /^\d+ \d+$/);
  // A versioned file is immutable: the second client's copy is the cache's, whatever the time.
  const snapshot = `${cache.url}/updates/stable/1.snapshot.json`;
  await fetch(snapshot);
  const again = await fetch(snapshot);
  assert.is(again.status, 200);
  assert.is(again.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  assert.is(asked.filter((path) => path === '/updates/stable/1.snapshot.json').length, 1, 'the origin was asked once');
  assert.match(String(again.headers.get('x-varnish')), /^\d+ \d+$/);
  const conditional = await fetch(url, { headers: { 'if-none-match': String(first.headers.get('etag')) } });
  assert.is(conditional.status, 304);
  assert.is(await conditional.text(), '');
});

test("a new timestamp reaches a polling client once the cached copy's max-age has passed, never before the origin was asked", async (context) => {
  const { cache, asked, publish } = context;
  const url = `${cache.url}/updates/stable/timestamp.json`;
  const before = await timestampVersion(await fetch(url));
  const askedBefore = asked.filter((path) => path === '/updates/stable/timestamp.json').length;
  await publish('2.7.0');
  const published = (await context.storage.updateFiles.newestUpdateFile('stable', 'timestamp'))!.version;
  assert.is(published, before + 1);
  const started = performance.now();
  for (;;) {
    const answer = await fetch(url);
    const age = Number(answer.headers.get('age'));
    const version = await timestampVersion(answer);
    if (version === published) break;
    // The old copy is served only while it is fresh.
    assert.is(version, before);
    assert.ok(age <= MAX_AGE, `the cached copy was served at age ${age}, past its max-age of ${MAX_AGE}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  assert.ok(asked.filter((path) => path === '/updates/stable/timestamp.json').length > askedBefore, 'the new copy came from the origin');
  console.log(
    `without a purge: a new timestamp reached a client polling the cache every 250 ms ${
      Math.round(performance.now() - started)
    } ms after it was stored (max-age ${MAX_AGE} s)`,
  );
});

test("the pre-install check reaches the origin at once and sees a halt the cache's copy does not show yet", async (context) => {
  const { cache, asked, publish } = context;
  await publish('2.8.0', { rolloutBasisPoints: 500, ramp: { basisPoints: [500, 10000], everyMs: DAY, startAt: Date.now() } });
  const cached = await timestampVersion(await fetch(`${cache.url}/updates/stable/timestamp.json`));
  await context.storage.change(async (tx) => void (await tx.releases.haltRelease('2.8.0', Date.now(), 'bug reports')));
  await context.app.app.refreshReleases();
  const fresh = `/updates/stable/timestamp.json?fresh=${randomBytes(8).toString('hex')}`;
  const answer = await fetch(cache.url + fresh, { headers: { 'cache-control': 'no-cache' } });
  assert.ok(asked.includes(fresh), 'asked of the origin');
  const newest = await context.storage.updateFiles.newestUpdateFile('stable', 'timestamp');
  assert.is(await timestampVersion(answer), newest!.version, 'the timestamp signed after the halt');
  assert.ok(newest!.version > cached);
  // The chain it names, read through the cache (versioned files), carries the halt.
  const snapshotVersion = (JSON.parse(newest!.text) as { signed: { meta: { 'snapshot.json': { version: number } } } }).signed.meta['snapshot.json'].version;
  const snapshot = (await (await fetch(`${cache.url}/updates/stable/${snapshotVersion}.snapshot.json`)).json()) as {
    signed: { meta: { 'targets.json': { version: number } } };
  };
  const targets = (await (await fetch(`${cache.url}/updates/stable/${snapshot.signed.meta['targets.json'].version}.targets.json`)).json()) as {
    signed: { targets: Record<string, { custom: ReleaseCustom }> };
  };
  assert.match(String(targets.signed.targets['LegacySheetConverter-2.8.0-x64.msi']!.custom.haltedAt), /^\d{4}-\d\d-\d\dT/);
});

test("a 304 of the timestamp is at most 400 bytes on the wire, the origin's own answer", async (context) => {
  const address = context.origin.address() as AddressInfo;
  const etag = (await fetch(`http://127.0.0.1:${address.port}/updates/stable/timestamp.json`)).headers.get('etag')!;
  const wire = await new Promise<string>((resolve, reject) => {
    const socket = connect(address.port, '127.0.0.1', () => {
      socket.end(`GET /updates/stable/timestamp.json HTTP/1.1\r\nHost: updates.example.com\r\nIf-None-Match: ${etag}\r\nConnection: close\r\n\r\n`);
    });
    let received = '';
    socket.on('data', (chunk: Buffer) => void (received += chunk.toString('latin1')));
    socket.on('end', () => resolve(received));
    socket.on('error', reject);
  });
  assert.match(wire, /^HTTP\/1\.1 304 /);
  assert.ok(wire.length <= 400, `${wire.length} bytes:\n${wire}`);
});

/** A BAN of `key` sent to the cache from `from` (a 127.x address): its status. */
function ban(cache: Varnish, key: string, from: string): Promise<number> {
  const { port } = new URL(cache.url);
  return new Promise((resolve, reject) => {
    const sent = httpRequest({ host: '127.0.0.1', port, method: 'BAN', path: '/', localAddress: from, headers: { 'surrogate-key': key } }, (answer) => {
      answer.resume();
      answer.on('end', () => resolve(answer.statusCode ?? 0));
    });
    sent.on('error', reject);
    sent.end();
  });
}

test("the docs' VCL takes a BAN from its ACL only, and of tags only", async ({ cache }) => {
  assert.is(await ban(cache, 'updates:nothing-cached', '127.0.0.2'), 403, 'outside the ACL');
  assert.is(await ban(cache, '.*', '127.0.0.1'), 400, 'a regular expression is no tag');
  assert.is(await ban(cache, 'updates:nothing-cached', '127.0.0.1'), 200);
  const refusal = await createVarnishPurge({ urls: [cache.url] }).purge(['.*'], AbortSignal.timeout(5000)).then(() => null, (error: Error) => error);
  assert.is(refusal?.message, `varnish BAN at ${new URL(cache.url).host}: 400 Surrogate-Key must name the tags to ban, separated by spaces`);
});

test('with the Varnish purge on, a halt reaches a client polling the cache although its copy is fresh for an hour: the copy is banned', async (context) => {
  const { cache, storage, publish } = context;
  const clock = { now: () => Date.now() };
  const purging = await createTestApp({
    storage,
    clock,
    updates: { signer: context.online, timestampMaxAge: 3600, purge: createVarnishPurge({ urls: [cache.url] }) },
  });
  context.serving = purging;
  // The standalone server's loop: the files are signed, and the caches purged, within a second of a change.
  const loop = startBackgroundLoop(() => purging.app.refreshReleases(), 'could not read the releases', clock, purging.logger, 1000);
  try {
    await publish('2.9.0', { rolloutBasisPoints: 500, ramp: { basisPoints: [500, 10000], everyMs: DAY, startAt: Date.now() } });
    await purging.app.purgesSettled();
    const url = `${cache.url}/updates/stable/timestamp.json`;
    const cached = await timestampVersion(await fetch(url));
    const hit = await fetch(url);
    assert.is(hit.headers.get('cache-control'), 'public, max-age=3600');
    assert.match(String(hit.headers.get('x-varnish')), /^\d+ \d+$/, 'a hit: the cache keeps this copy for an hour');
    assert.is(await timestampVersion(hit), cached);
    const banned = () => cache.counter('MAIN.bans_obj_killed') + cache.counter('MAIN.bans_lurker_obj_killed');
    const bannedBefore = banned();
    const started = performance.now();
    await storage.change(async (tx) => void (await tx.releases.haltRelease('2.9.0', Date.now(), 'bug reports')));
    let polls = 0;
    let fresh: Response;
    for (;;) {
      fresh = await fetch(url);
      polls += 1;
      const version = await timestampVersion(fresh.clone());
      if (version !== cached) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const elapsed = Math.round(performance.now() - started);
    console.log(`with the Varnish purge: the halt reached a client polling the cache every 100 ms after ${elapsed} ms (${polls} polls; max-age 3600 s)`);
    const newest = (await storage.updateFiles.newestUpdateFile('stable', 'timestamp'))!;
    assert.is(await timestampVersion(fresh), newest.version, 'the timestamp signed after the halt');
    assert.is(fresh.headers.get('age'), '0', "the origin's new copy");
    assert.ok(banned() > bannedBefore, 'the cached copy was dropped by the ban, an hour before its max-age');
    assert.ok(purging.logger.lines.some((line) => line.message === 'cache purged' && line.fields?.['purge'] === 'varnish'), 'logged');
  } finally {
    await loop.stop();
    await purging.app.purgesSettled();
    context.serving = context.app;
    // The files the purging app stored, served by the first one too.
    await context.app.app.refreshReleases();
  }
});

test('tuf-js, pinned to root 1, refreshes through the cache and downloads an installer through the redirect, hash checked', async ({ cache, rootText }) => {
  const dir = mkdtempSync(join(tmpdir(), 'tuf-varnish-'));
  try {
    mkdirSync(join(dir, 'metadata'));
    mkdirSync(join(dir, 'targets'));
    writeFileSync(join(dir, 'metadata', 'root.json'), rootText);
    const updater = new Updater({
      metadataBaseUrl: `${cache.url}/updates/stable/`,
      targetBaseUrl: `${cache.url}/updates/stable/targets/`,
      metadataDir: join(dir, 'metadata'),
      targetDir: join(dir, 'targets'),
    });
    await updater.refresh();
    const target = await updater.getTargetInfo('LegacySheetConverter-2.7.0-x64.msi');
    assert.ok(target, 'listed');
    assert.is((target!.custom as unknown as ReleaseCustom).version, '2.7.0');
    const path = await updater.downloadTarget(target!, join(dir, 'targets', 'downloaded.msi'));
    assert.equal(new Uint8Array(readFileSync(path)), msi('2.7.0'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
