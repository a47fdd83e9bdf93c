/**
 * POST /api/v1/installs (issue 55, an addition to the spec): an app on the update files says once a day which
 * version it runs. 204 whether or not it counted; one install per install id, version and UTC day; at most 10
 * install ids of one address a version and day; a version that is no live release (nor the baseline) counts
 * nothing; a malformed install id or channel name is 400, an unknown channel 404, as JSON errors.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { bodyJson, coreRequest, createTestApp, type TestApp } from '../_setup.ts';

const test = suite<{ t: TestApp }>('POST /api/v1/installs');
const DAY = 86_400_000;
/** The bytes 0 to 15, the docs' worked example. */
const ID = 'AAECAwQFBgcICQoLDA0ODw';
/** Install id number `i`: 16 bytes, the last one `i`. */
const idOf = (i: number) => Buffer.from([...new Array(15).fill(7), i]).toString('base64url');
const INVALID = 'Fix the request body or query as the message says; /openapi.json describes every field.';

test.before.each(async (context) => {
  context.t = await createTestApp({ rateLimit: { name: 'test', limit: 1e6, windowSeconds: 60 } });
  const { storage, clock, app } = context.t;
  await storage.change(async (tx) => {
    for (const version of ['2.5.0', '2.6.0', '2.6.1']) {
      await tx.releases.publishRelease({
        version,
        msiUrl: `https://downloads.example.com/${version}.msi`,
        notesUrl: null,
        rolloutBasisPoints: 10000,
        publishedAt: clock.now() - DAY,
      });
    }
    await tx.releases.pullRelease('2.6.1', clock.now());
  });
  await app.refreshReleases();
});

const ping = (t: TestApp, json: unknown, clientIp = '203.0.113.10', path = '/api/v1/installs') =>
  t.app.handle(coreRequest({ method: 'POST', path, json, clientIp }));
const counts = async (t: TestApp) => (await t.storage.installs.list(0, 1e6)).map((c) => [c.day, c.channel, c.release, c.count]);

test('a ping is 204 with no body and counts one install of its version today, once however often it is sent', async ({ t }) => {
  for (let i = 0; i < 3; i++) {
    const answer = await ping(t, { channel: 'stable', version: '2.6.0', installId: ID });
    assert.equal([answer.status, answer.body, answer.headers['content-type']], [204, null, undefined]);
  }
  const today = Math.floor(t.clock.now() / DAY);
  assert.equal(await counts(t), [[today, 'stable', '2.6.0', 1]]);
  await ping(t, { channel: 'stable', version: '2.5.0', installId: ID });
  t.clock.advance(DAY);
  await ping(t, { channel: 'stable', version: '2.6.0', installId: ID });
  assert.equal(
    await counts(t),
    [[today, 'stable', '2.5.0', 1], [today, 'stable', '2.6.0', 1], [today + 1, 'stable', '2.6.0', 1]],
    'another version, another day',
  );
});

test('the /api alias answers the same, metered like every public write: the rate-limit headers', async ({ t }) => {
  const answer = await ping(t, { channel: 'stable', version: '2.6.0', installId: ID }, '203.0.113.10', '/api/installs');
  assert.is(answer.status, 204);
  assert.is(answer.headers['ratelimit-limit'], '1000000');
  assert.ok(answer.headers['ratelimit-remaining'] !== undefined && answer.headers['x-request-id'] !== undefined);
  assert.is((await counts(t)).length, 1);
});

test('a version that is no live release is 204 and counts nothing: unknown, pulled; the baseline counts', async ({ t }) => {
  for (const version of ['2.9.0', '2.6.1', '2.4.0']) assert.is((await ping(t, { channel: 'stable', version, installId: ID })).status, 204, version);
  assert.equal(await counts(t), []);
  assert.is((await ping(t, { channel: 'stable', version: '2.4.1', installId: ID })).status, 204);
  assert.equal((await counts(t)).map((c) => c[2]), ['2.4.1'], 'the baseline (the version file), which no stored release names');
});

test('at most 10 install ids of one address count for a version a day; another address has its own 10', async ({ t }) => {
  for (let i = 0; i < 12; i++) assert.is((await ping(t, { channel: 'stable', version: '2.6.0', installId: idOf(i) })).status, 204);
  assert.equal((await counts(t))[0]![3], 10);
  // A 6to4 form of the same IPv4 is the same client (a party, as bug reports count them).
  await ping(t, { channel: 'stable', version: '2.6.0', installId: idOf(20) }, '2002:cb00:710a::1');
  assert.equal((await counts(t))[0]![3], 10, '2002:cb00:710a:: carries 203.0.113.10');
  await ping(t, { channel: 'stable', version: '2.6.0', installId: idOf(11) }, '203.0.113.11');
  assert.equal((await counts(t))[0]![3], 11, 'the id refused from the first address counts from another');
});

for (
  const [name, json, message] of [
    [
      'an install id of 21 characters',
      { channel: 'stable', version: '2.6.0', installId: ID.slice(1) },
      'Field "installId" must be an install id: 16 bytes in base64url without padding (22 characters of A-Z a-z 0-9 - _).',
    ],
    [
      'an install id of 17 bytes',
      { channel: 'stable', version: '2.6.0', installId: 'AAECAwQFBgcICQoLDA0ODxA' },
      'Field "installId" must be an install id: 16 bytes in base64url without padding (22 characters of A-Z a-z 0-9 - _).',
    ],
    [
      'an install id whose last character holds more than 2 bits',
      { channel: 'stable', version: '2.6.0', installId: 'AAECAwQFBgcICQoLDA0ODx' },
      'Field "installId" must be an install id: 16 bytes in base64url without padding (22 characters of A-Z a-z 0-9 - _).',
    ],
    [
      'an install id in base64 with padding',
      { channel: 'stable', version: '2.6.0', installId: 'AAECAwQFBgcICQoLDA0ODw==' },
      'Field "installId" must be an install id: 16 bytes in base64url without padding (22 characters of A-Z a-z 0-9 - _).',
    ],
    ['no install id', { channel: 'stable', version: '2.6.0' }, 'Field "installId" is required.'],
    [
      'a version outside the release grammar',
      { channel: 'stable', version: '2.6', installId: ID },
      'Field "version" must be a release version: major.minor.build such as 2.5.0, with an optional fourth field, no leading zeros.',
    ],
    [
      'a channel name outside the pattern',
      { channel: 'Stable', version: '2.6.0', installId: ID },
      'Field "channel" must be a channel name: 1 to 32 of a-z, 0-9 and -.',
    ],
  ] as const
) {
  test(`${name} is 400 invalid_request naming the field, and counts nothing`, async ({ t }) => {
    const answer = await ping(t, json);
    assert.is(answer.status, 400);
    assert.equal(bodyJson(answer), { code: 'invalid_request', message, resolution: INVALID });
    assert.equal(await counts(t), []);
  });
}

test('an unknown channel is 404 not_found, as the update files answer it', async ({ t }) => {
  const answer = await ping(t, { channel: 'nightly', version: '2.6.0', installId: ID });
  assert.is(answer.status, 404);
  assert.equal(bodyJson(answer), {
    code: 'not_found',
    message: 'No update channel is named "nightly".',
    resolution: 'Name the channel whose files the app reads (/updates/<channel>/), such as stable.',
  });
  assert.equal(await counts(t), []);
});

test('fields not listed are ignored; a body that is not JSON is refused as every JSON body is', async ({ t }) => {
  assert.is((await ping(t, { channel: 'stable', version: '2.6.0', installId: ID, os: 'Windows 11' })).status, 204);
  assert.is((await counts(t)).length, 1);
  const text = await t.app.handle(coreRequest({ method: 'POST', path: '/api/v1/installs', headers: { 'content-type': 'text/plain' }, body: 'x' }));
  assert.is(text.status, 415);
});

test.run();
