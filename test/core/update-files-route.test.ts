/**
 * The update files' surface (issue 54, core/updates/files-route.ts): stored bytes served from memory with
 * the caching headers of a file (no rate-limit headers on a 200, 304 or 302, which a cache hands to
 * everyone), while a 400 or 404 is metered like every error; nothing stored is read per request.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { UpdateFile } from '../../core/ports/update-files.ts';
import { bodyText, coreRequest, createTestApp } from '../_setup.ts';
import { storedFile } from '../_update-files.ts';

const SHA = 'ab'.repeat(32);
const stored = storedFile;
const targets = {
  targets: { 'LegacySheetConverter-2.7.0-x64.msi': { length: 4096, hashes: { sha256: SHA }, custom: { url: 'https://downloads.example.com/2.7.0.msi' } } },
};

async function appWithFiles(files: readonly UpdateFile[]) {
  const made = await createTestApp();
  await made.storage.change(async (tx) => {
    for (const file of files) assert.ok(await tx.updateFiles.putUpdateFile(file));
  });
  await made.app.refreshReleases();
  const get = async (path: string, headers: Record<string, string> = {}) => made.app.handle(coreRequest({ path, headers }));
  return { ...made, get };
}

const RATE_LIMIT_HEADERS = ['ratelimit', 'ratelimit-policy', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'];
const perClient = (headers: Record<string, string | string[]>) => Object.keys(headers).filter((name) => RATE_LIMIT_HEADERS.includes(name));

test('timestamp.json: the stored bytes, public for 60 s with a strong ETag, and nothing per client; its ETag answers 304', async () => {
  const { get } = await appWithFiles([stored('root', 1, {}), stored('timestamp', 1, {}), stored('timestamp', 2, {})]);
  const first = await get('/updates/stable/timestamp.json', { 'x-request-id': 'client-a-trace' });
  assert.is(first.status, 200);
  assert.is(bodyText(first), JSON.stringify({ signatures: [], signed: { _type: 'timestamp', version: 2 } }));
  assert.is(first.headers['content-type'], 'application/json');
  assert.is(first.headers['cache-control'], 'public, max-age=60');
  assert.match(String(first.headers['etag']), /^"[0-9a-f]{32}"$/);
  assert.equal(perClient(first.headers), []);
  assert.is(first.headers['x-request-id'], undefined, "a cached copy would hand client A's id to everyone");
  const again = await get('/updates/stable/timestamp.json', { 'if-none-match': String(first.headers['etag']) });
  assert.is(again.status, 304);
  assert.is(again.body, null);
  assert.is(again.headers['cache-control'], 'public, max-age=60');
  assert.equal(perClient(again.headers), []);
});

test('a versioned file is immutable for a year; root.json is the newest root, public for the max-age', async () => {
  const { get } = await appWithFiles([stored('root', 1, {}), stored('root', 2, {}), stored('snapshot', 3, {}), stored('targets', 3, targets)]);
  const snapshot = await get('/updates/stable/3.snapshot.json');
  assert.is(snapshot.status, 200);
  assert.is(snapshot.headers['cache-control'], 'public, max-age=31536000, immutable');
  assert.is(JSON.parse(bodyText(await get('/updates/stable/1.root.json'))).signed.version, 1);
  const root = await get('/updates/stable/root.json');
  assert.is(JSON.parse(bodyText(root)).signed.version, 2);
  assert.is(root.headers['cache-control'], 'public, max-age=60');
});

test("a target's consistent-snapshot name redirects to its installer, with nothing per client", async () => {
  const { get } = await appWithFiles([stored('root', 1, {}), stored('targets', 1, targets)]);
  const target = await get(`/updates/stable/targets/${SHA}.LegacySheetConverter-2.7.0-x64.msi`);
  assert.is(target.status, 302);
  assert.is(target.headers['location'], 'https://downloads.example.com/2.7.0.msi');
  assert.is(target.headers['cache-control'], 'public, max-age=86400');
  assert.equal(perClient(target.headers), []);
});

test('every 200, 304 and 302 names its channel in Cache-Tag and Surrogate-Key, the tag a purge drops; an error names none', async () => {
  const { get } = await appWithFiles([stored('root', 1, {}), stored('timestamp', 1, {}), stored('snapshot', 1, {}), stored('targets', 1, targets)]);
  const tags = (headers: Record<string, string | string[]>) => [headers['cache-tag'], headers['surrogate-key']];
  const timestamp = await get('/updates/stable/timestamp.json');
  const answers = [
    timestamp,
    await get('/updates/stable/timestamp.json', { 'if-none-match': String(timestamp.headers['etag']) }),
    await get('/updates/stable/root.json'),
    await get('/updates/stable/1.snapshot.json'),
    await get(`/updates/stable/targets/${SHA}.LegacySheetConverter-2.7.0-x64.msi`),
  ];
  assert.equal(answers.map((answer) => answer.status), [200, 304, 200, 200, 302]);
  for (const answer of answers) assert.equal(tags(answer.headers), ['updates:stable', 'updates:stable']);
  const missing = await get('/updates/stable/9.snapshot.json');
  assert.is(missing.status, 404);
  assert.equal(tags(missing.headers), [undefined, undefined]);
});

test('errors are JSON and metered: a bad channel name 400, an unknown channel, version or hash 404, a wrong method 405, each with the rate-limit headers', async () => {
  const { app } = await appWithFiles([stored('root', 1, {}), stored('targets', 1, targets)]);
  const FILES_START = 'The files of a channel start at /updates/<channel>/timestamp.json; docs/updates.md describes them.';
  const unknownHash = `${'cd'.repeat(32)}.LegacySheetConverter-2.7.0-x64.msi`;
  const cases: [string, number, string, string, string][] = [
    ['/updates/Stable!/timestamp.json', 400, 'invalid_parameter', 'The channel "Stable!" is not a channel name: 1 to 32 of a-z, 0-9 and -.', FILES_START],
    ['/updates/nightly/timestamp.json', 404, 'not_found', 'No update channel is named "nightly".', FILES_START],
    ['/updates/stable/9.snapshot.json', 404, 'not_found', 'No /updates/stable/9.snapshot.json is served here.', FILES_START],
    [
      '/updates/stable/timestamp.json',
      404,
      'not_found',
      'Channel "stable" has no timestamp.json yet: no root of it is published (docs/operating.md, "Setting up the update files").',
      FILES_START,
    ],
    [`/updates/stable/targets/${unknownHash}`, 404, 'not_found', `No target of channel "stable" is named "${unknownHash}".`, FILES_START],
    [
      '/updates/stable/../secret.json',
      404,
      'not_found',
      'No API endpoint exists at "/updates/stable/../secret.json".',
      'See /openapi.json for the published endpoints.',
    ],
  ];
  for (const [i, [path, status, code, message, resolution]] of cases.entries()) {
    // A client of its own for each, so that each is its first request of the window.
    const answer = await app.handle(coreRequest({ path, clientIp: `203.0.113.${i + 1}` }));
    const requestId = String(answer.headers['x-request-id']);
    assert.match(requestId, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, path);
    assert.equal({ status: answer.status, headers: answer.headers, body: bodyText(answer) }, {
      status,
      headers: {
        'content-type': 'application/json',
        ratelimit: '"public-api";r=119;t=60',
        'ratelimit-policy': '"public-api";q=120;w=60',
        'ratelimit-limit': '120',
        'ratelimit-remaining': '119',
        'ratelimit-reset': '60',
        'x-request-id': requestId,
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      },
      body: JSON.stringify({ code, message, resolution }),
    }, path);
  }
  const wrongMethod = await app.handle(coreRequest({ method: 'POST', path: '/updates/stable/timestamp.json' }));
  assert.is(wrongMethod.status, 405);
  assert.is(wrongMethod.headers['cache-control'], 'no-store');
  assert.equal(perClient(wrongMethod.headers).sort(), [...RATE_LIMIT_HEADERS].sort(), 'a wrong method is an error: metered');
});

test("the app names each channel's newest root as served, null for a channel without one", async () => {
  const made = await createTestApp();
  await made.storage.change(async (tx) => {
    for (const version of [1, 2]) await tx.updateFiles.putUpdateFile(stored('root', version, {}));
  });
  assert.equal(made.app.channelRoots(), [{ channel: 'stable', root: null }, { channel: 'beta', root: null }], 'read at the start: none stored');
  await made.app.refreshReleases();
  assert.equal(made.app.channelRoots(), [{ channel: 'stable', root: { version: 2, expiresAt: Date.UTC(2027, 0, 1) } }, { channel: 'beta', root: null }]);
});

test('a client past its quota of errors gets 429 for the next error, while files are still served to it', async () => {
  const { get } = await appWithFiles([stored('root', 1, {}), stored('timestamp', 1, {})]);
  for (let i = 0; i < 120; i++) assert.is((await get('/updates/stable/7.root.json')).status, 404);
  const refused = await get('/updates/stable/7.root.json');
  assert.is(refused.status, 429);
  assert.is(JSON.parse(bodyText(refused)).code, 'rate_limited');
  assert.is((await get('/updates/stable/timestamp.json')).status, 200);
});

test('nothing stored is read per request: files, unknown versions and hashes come from memory; a refresh reads only new files', async () => {
  const { storage, app, get } = await appWithFiles([stored('root', 1, {}), stored('timestamp', 1, {})]);
  let reads = 0;
  const listed: string[][] = [];
  const files = storage.updateFiles;
  for (const name of ['getUpdateFile', 'newestUpdateFile', 'listUpdateFiles'] as const) {
    const read = files[name].bind(files) as (...args: unknown[]) => Promise<unknown>;
    (files as unknown as Record<string, unknown>)[name] = async (...args: unknown[]) => {
      reads++;
      const answer = await read(...args);
      if (name === 'listUpdateFiles') listed.push((answer as UpdateFile[]).map((file) => `${file.role} ${file.version}`));
      return answer;
    };
  }
  for (const path of ['/updates/stable/timestamp.json', '/updates/stable/5.targets.json', `/updates/stable/targets/${SHA}.x.msi`]) await get(path);
  assert.is(reads, 0);
  await storage.change(async (tx) => void (await tx.updateFiles.putUpdateFile(stored('timestamp', 2, {}, 2_000))));
  assert.is(JSON.parse(bodyText(await get('/updates/stable/timestamp.json'))).signed.version, 1, 'not read yet');
  await app.refreshReleases();
  assert.is(reads, 2, 'one read per channel (stable and beta)');
  assert.is(JSON.parse(bodyText(await get('/updates/stable/timestamp.json'))).signed.version, 2);
  await app.refreshReleases();
  assert.equal(
    listed,
    [['timestamp 2'], [], [], []],
    'each refresh lists, per channel (stable, beta), what is above the newest held: the new timestamp, then nothing',
  );
});

test.run();
