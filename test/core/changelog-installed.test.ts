/**
 * "What's new" for an early adopter (issue 55): GET /api/v1/changelog?installed=<version> adds the releases at
 * or below it that are not yet at 100 % (published, not pulled, above the newest live for everyone), with
 * their roadmap items and reached_everyone_at null. installed is normalised onto those releases, so the
 * answers' bodies and ETags are shared; a release reaching 100 % changes the page's ETag and Last-Modified.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parseAtomFeed } from 'feedsmith';
import { operateOk, OPERATOR_TOKEN } from '../_operator.ts';
import { bodyJson, bodyText, coreRequest, createTestApp, type TestApp } from '../_setup.ts';
import { JSON_FEED_1_1_SCHEMA } from '../_json-feed-schema.ts';

const test = suite('changelog ?installed=');
const MINUTE = 60_000;
const MSI = (version: string) => `https://downloads.example.com/LegacySheetConverter-${version}-x64.msi`;
const BASE = 'http://localhost:8080';

const ajv = new Ajv2020({ strict: true, strictRequired: false, allErrors: true });
addFormats(ajv);
const validJsonFeed = ajv.compile(JSON_FEED_1_1_SCHEMA);

const get = (t: TestApp, path: string, query?: string, headers: Record<string, string> = {}) =>
  t.app.handle(coreRequest({ path, headers, ...(query === undefined ? {} : { query }) }));

interface Feed {
  next_url?: string;
  items: { date_published: string; content_text: string; _release: { version: string; reached_everyone_at: string | null; features: { id: number }[] } }[];
}
const feedOf = async (t: TestApp, query?: string) => bodyJson(await get(t, '/api/v1/changelog', query)) as Feed;
const versionsIn = async (t: TestApp, query?: string) => (await feedOf(t, query)).items.map((item) => item._release.version);

/** 2.5.0 at 100 %; 2.6.0 ramping 10 -> 100 % an hour later (feature 3 names it), published a minute after. */
async function releases(): Promise<TestApp & { start: number }> {
  const t = await createTestApp({ operatorToken: OPERATOR_TOKEN });
  const start = t.clock.now();
  await operateOk(t.app, 'POST', '/releases', { version: '2.5.0', msiUrl: MSI('2.5.0'), rolloutPercent: 100 });
  t.clock.advance(MINUTE);
  await operateOk(t.app, 'POST', '/releases', { version: '2.6.0', msiUrl: MSI('2.6.0'), rolloutPercent: 10, ramp: { steps: [10, 100], everyMinutes: 60 } });
  await operateOk(t.app, 'PATCH', '/roadmap/3', { release_version: '2.6.0' });
  return { ...t, start };
}

test('installed=2.6.0 lists the staged 2.6.0 with its items, reached_everyone_at null, dated by its publication', async () => {
  const t = await releases();
  t.clock.advance(MINUTE);
  const response = await get(t, '/api/v1/changelog', 'installed=2.6.0');
  assert.is(response.status, 200);
  assert.is(response.headers['cache-control'], 'public, max-age=300');
  assert.is(response.headers['last-modified'], new Date(t.start + MINUTE).toUTCString(), "2.6.0's publication, the newest time on the page");
  const feed = bodyJson(response) as Feed & { feed_url: string };
  assert.ok(validJsonFeed(bodyJson(response)), JSON.stringify(validJsonFeed.errors));
  assert.equal(feed.items.map((item) => [item._release.version, item._release.reached_everyone_at, item.date_published]), [
    ['2.6.0', null, new Date(t.start + MINUTE).toISOString()],
    ['2.5.0', new Date(t.start).toISOString(), new Date(t.start).toISOString()],
  ]);
  assert.equal(feed.items[0]!._release.features.map((f) => f.id), [3]);
  assert.match(feed.items[0]!.content_text, /^Version 2\.6\.0 is out for some users, you among them: it is not out for everyone yet\.\n\nNew:\n- /);
  assert.is(feed.feed_url, `${BASE}/api/v1/changelog`);
  // Without installed, 2.6.0 is not there: the early adopter's "What's new" since 2.5.0 was empty.
  assert.equal(await versionsIn(t), ['2.5.0']);
  assert.equal(await versionsIn(t, 'since=2.5.0'), []);
  assert.equal(await versionsIn(t, 'since=2.5.0&installed=2.6.0'), ['2.6.0']);
  const atom = parseAtomFeed(bodyText(await get(t, '/api/v1/changelog.atom', 'since=2.5.0&installed=2.6.0')));
  assert.equal(atom.entries?.map((entry) => [entry.id, entry.published]), [[`${BASE}/api/v1/changelog#v2.6.0`, new Date(t.start + MINUTE).toISOString()]]);
  assert.ok(atom.links?.some((link) => link.rel === 'self' && link.href === `${BASE}/api/v1/changelog.atom?since=2.5.0&installed=2.6.0`));
});

test('installed is normalised: below every staged release it answers as without it; above, as the highest staged one', async () => {
  const t = await releases();
  const etag = async (query?: string) => (await get(t, '/api/v1/changelog', query)).headers['etag'];
  assert.is(await etag('installed=2.5.9'), await etag(), 'no staged release at or below 2.5.9');
  assert.is(await etag('installed=2.5.0'), await etag());
  assert.is(await etag('installed=9.0.0'), await etag('installed=2.6.0'));
  assert.is.not(await etag('installed=2.6.0'), await etag());
  assert.is(await etag('since=2.5.0&installed=2.6.0.7'), await etag('since=2.5.0&installed=2.6.0'));
});

test('the ETag and Last-Modified follow the staged release: 304 while unchanged, a new body when it reaches everyone', async () => {
  const t = await releases();
  const first = await get(t, '/api/v1/changelog', 'installed=2.6.0');
  const tag = first.headers['etag']!;
  assert.is((await get(t, '/api/v1/changelog', 'installed=2.6.0', { 'if-none-match': tag })).status, 304);
  assert.is((await get(t, '/api/v1/changelog', undefined, { 'if-none-match': tag })).status, 200, 'the page without installed is another answer');
  // The ramp's 100 % step: 2.6.0 now reached everyone, dated by its plan.
  t.clock.set(t.start + MINUTE + 60 * MINUTE + 5000);
  const later = await get(t, '/api/v1/changelog', 'installed=2.6.0');
  assert.is.not(later.headers['etag'], tag);
  assert.is(later.headers['last-modified'], new Date(t.start + MINUTE + 60 * MINUTE).toUTCString());
  assert.is((await get(t, '/api/v1/changelog', 'installed=2.6.0', { 'if-modified-since': first.headers['last-modified']! })).status, 200);
  assert.equal((await feedOf(t, 'installed=2.6.0')).items.map((item) => item._release.reached_everyone_at), [
    new Date(t.start + MINUTE + 60 * MINUTE).toISOString(),
    new Date(t.start).toISOString(),
  ]);
  assert.is((await get(t, '/api/v1/changelog', 'installed=2.6.0')).headers['etag'], (await get(t, '/api/v1/changelog')).headers['etag']);
});

test('not listed: a pulled release, one at 0 %, and one stopped short below a release live for everyone', async () => {
  const t = await releases();
  await operateOk(t.app, 'POST', '/releases/2.6.0/pull');
  assert.equal(await versionsIn(t, 'installed=2.6.0'), ['2.5.0'], 'pulled');
  await operateOk(t.app, 'POST', '/releases/2.6.0/restore');
  assert.equal(await versionsIn(t, 'installed=2.6.0'), ['2.6.0', '2.5.0'], 'restored');
  await operateOk(t.app, 'POST', '/releases', { version: '2.6.1', msiUrl: MSI('2.6.1'), rolloutPercent: 100 });
  assert.equal(await versionsIn(t, 'installed=2.6.1'), ['2.6.1', '2.5.0'], '2.6.0 stopped short at 10 % below 2.6.1 at 100 %');
  await operateOk(t.app, 'POST', '/releases', { version: '2.7.0', msiUrl: MSI('2.7.0'), rolloutPercent: 0 });
  assert.equal(await versionsIn(t, 'installed=2.7.0'), ['2.6.1', '2.5.0'], '2.7.0 at 0 % is offered to nobody');
});

test('a bad or repeated installed is 400 invalid_parameter naming it and the grammar', async () => {
  const t = await releases();
  for (const query of ['installed=2.6', 'installed=02.6.0', 'installed=2.6.0-beta.1', 'installed=2.6.0&installed=2.5.0']) {
    const response = await get(t, '/api/v1/changelog', query);
    assert.is(response.status, 400, query);
    assert.is((bodyJson(response) as { code: string }).code, 'invalid_parameter');
  }
  assert.equal(bodyJson(await get(t, '/api/v1/changelog.atom', 'installed=2.6')), {
    code: 'invalid_parameter',
    message: 'Query parameter "installed" must be a release version: major.minor.build such as 2.5.0, with an optional fourth field, ' +
      'no leading zeros, at most 255.255.65535.65535.',
    resolution: 'Fix the query parameter as the message says; /openapi.json describes the allowed values.',
  });
  assert.is(
    (bodyJson(await get(t, '/api/v1/changelog', 'installed=2.6.0&installed=2.5.0')) as { message: string }).message,
    'Query parameter "installed" is given more than once.',
  );
});

test.run();
