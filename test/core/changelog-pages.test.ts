/**
 * The changelog's pages (issue 53): 50 items a page, newest first; the next page by before=<the last item's
 * version>, named by JSON Feed's next_url and Atom's rel="next" (RFC 5005); since and before normalised onto
 * the releases, so that a version between two releases answers the bytes, ETag and links of the release
 * it falls back to; each page its own ETag, Last-Modified and 304. Every page is checked as JSON Feed 1.1
 * (a JSON Schema) and read by a third-party parser (feedsmith), both feeds.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parseAtomFeed, parseJsonFeed } from 'feedsmith';
import { operateOk, OPERATOR_TOKEN } from '../_operator.ts';
import { bodyJson, bodyText, coreRequest, createTestApp, type TestApp } from '../_setup.ts';
import { JSON_FEED_1_1_SCHEMA } from '../_json-feed-schema.ts';

const test = suite('changelog pages');
const MINUTE = 60_000;
const BASE = 'http://localhost:8080';
const JSON_URL = `${BASE}/api/v1/changelog`;
const ATOM_URL = `${BASE}/api/v1/changelog.atom`;

const ajv = new Ajv2020({ strict: true, strictRequired: false, allErrors: true });
addFormats(ajv);
const validJsonFeed = ajv.compile(JSON_FEED_1_1_SCHEMA);

interface Feed {
  next_url?: string;
  items: { id: string; _release: { version: string; features: { id: number }[] } }[];
}

const get = (t: TestApp, path: string, query = '', headers: Record<string, string> = {}) => t.app.handle(coreRequest({ path, query, headers }));

/** `count` releases 1.0.0, 1.0.2, 1.0.4, ... (even builds: the odd ones fall between two), each at 100 % a minute apart. */
async function releases(count: number): Promise<TestApp & { versions: string[] }> {
  const t = await createTestApp({ operatorToken: OPERATOR_TOKEN });
  const versions: string[] = [];
  for (let i = 0; i < count; i++) {
    const version = `1.0.${2 * i}`;
    await operateOk(t.app, 'POST', '/releases', {
      version,
      msiUrl: `https://downloads.example.com/LegacySheetConverter-${version}-x64.msi`,
      rolloutPercent: 100,
    });
    versions.unshift(version);
    t.clock.advance(MINUTE);
  }
  return { ...t, versions };
}

/** A page of the JSON Feed, checked as JSON Feed 1.1 and by feedsmith. */
async function jsonPage(t: TestApp, query = ''): Promise<Feed> {
  const response = await get(t, '/api/v1/changelog', query);
  assert.is(response.status, 200, query);
  const feed = bodyJson(response) as Feed;
  assert.ok(validJsonFeed(bodyJson(response)), JSON.stringify(validJsonFeed.errors));
  const parsed = parseJsonFeed(bodyJson(response)).items?.map((item) => item.id);
  assert.equal(parsed ?? [], feed.items.map((item) => item.id));
  return feed;
}

const versionsOf = (feed: Feed) => feed.items.map((item) => item._release.version);
const queryOf = (url: string) => new URL(url).search.slice(1);

test('50 items a page; next_url and rel="next" walk every release once, and the last page has neither', async () => {
  const t = await releases(120);
  const walked: string[] = [];
  const nexts: string[] = [];
  let query = '';
  for (;;) {
    const feed = await jsonPage(t, query);
    assert.ok(feed.items.length <= 50);
    walked.push(...versionsOf(feed));
    const atom = parseAtomFeed(bodyText(await get(t, '/api/v1/changelog.atom', query)));
    assert.is(atom.id, ATOM_URL, 'one feed id on every page');
    assert.equal(atom.entries?.map((entry) => entry.id), feed.items.map((item) => item.id));
    const links = Object.fromEntries((atom.links ?? []).map((link) => [link.rel, link.href]));
    assert.is(links['self'], query === '' ? ATOM_URL : `${ATOM_URL}?${query}`);
    assert.is(links['alternate'], query === '' ? JSON_URL : `${JSON_URL}?${query}`);
    if (feed.next_url === undefined) {
      assert.is(links['next'], undefined);
      break;
    }
    nexts.push(feed.next_url);
    assert.is(links['next'], feed.next_url.replace(JSON_URL, ATOM_URL));
    query = queryOf(feed.next_url);
  }
  assert.equal(walked, t.versions);
  assert.equal(nexts, [`${JSON_URL}?before=1.0.140`, `${JSON_URL}?before=1.0.40`]);
});

test('since and before combine, and the next page keeps since', async () => {
  const t = await releases(120);
  const first = await jsonPage(t, 'since=1.0.10');
  assert.equal(versionsOf(first), t.versions.slice(0, 50));
  assert.is(first.next_url, `${JSON_URL}?since=1.0.10&before=1.0.140`);
  const second = await jsonPage(t, queryOf(first.next_url!));
  assert.equal(versionsOf(second), t.versions.slice(50, 100));
  const third = await jsonPage(t, queryOf(second.next_url!));
  assert.equal(versionsOf(third), [
    '1.0.38',
    '1.0.36',
    '1.0.34',
    '1.0.32',
    '1.0.30',
    '1.0.28',
    '1.0.26',
    '1.0.24',
    '1.0.22',
    '1.0.20',
    '1.0.18',
    '1.0.16',
    '1.0.14',
    '1.0.12',
  ]);
  assert.is(third.next_url, undefined);
  assert.equal(versionsOf(await jsonPage(t, 'since=1.0.200')), [
    '1.0.238',
    '1.0.236',
    '1.0.234',
    '1.0.232',
    '1.0.230',
    '1.0.228',
    '1.0.226',
    '1.0.224',
    '1.0.222',
    '1.0.220',
    '1.0.218',
    '1.0.216',
    '1.0.214',
    '1.0.212',
    '1.0.210',
    '1.0.208',
    '1.0.206',
    '1.0.204',
    '1.0.202',
  ]);
  assert.equal(versionsOf(await jsonPage(t, 'before=1.0.6')), ['1.0.4', '1.0.2', '1.0.0']);
  assert.equal(versionsOf(await jsonPage(t, 'since=1.0.20&before=1.0.20')), []);
});

test('since and before between two releases answer the bytes, ETag and links of the release they fall back to', async () => {
  const t = await releases(120);
  // Normalised: since to the highest release at or below it, before to the lowest at or above it.
  const same: [string, string][] = [
    ['since=1.0.11', 'since=1.0.10'],
    ['since=1.0.11.7', 'since=1.0.10'],
    ['since=1.0.10.3', 'since=1.0.10'],
    ['since=0.9.0', ''],
    ['since=1.0.0', 'since=1.0.0'],
    ['since=2.0.0', 'since=1.0.238'],
    ['before=1.0.139', 'before=1.0.140'],
    ['before=9.0.0', ''],
    ['since=1.0.13&before=1.0.139', 'since=1.0.12&before=1.0.140'],
  ];
  for (const path of ['/api/v1/changelog', '/api/v1/changelog.atom']) {
    for (const [given, normal] of same) {
      const [a, b] = [await get(t, path, given), await get(t, path, normal)];
      assert.is(a.status, 200, given);
      assert.is(bodyText(a), bodyText(b), `${path} ${given} = ${normal}`);
      assert.is(a.headers['etag'], b.headers['etag']);
      assert.is(a.headers['last-modified'], b.headers['last-modified']);
      // A copy fetched with the normalised value is current for the given one.
      assert.is((await get(t, path, given, { 'if-none-match': b.headers['etag']! })).status, 304, `${path} ${given}`);
    }
  }
  assert.is((await jsonPage(t, 'since=1.0.11')).next_url, `${JSON_URL}?since=1.0.10&before=1.0.140`);
});

test('each page has its own ETag and Last-Modified; a new release changes the first page, not a before= page', async () => {
  const t = await releases(120);
  const [first, second] = [await get(t, '/api/v1/changelog'), await get(t, '/api/v1/changelog', 'before=1.0.140')];
  assert.is.not(first.headers['etag'], second.headers['etag']);
  const newest = t.clock.now() - MINUTE;
  assert.is(first.headers['last-modified'], new Date(newest).toUTCString());
  // The second page's newest release is 1.0.138, the 70th published.
  assert.is(second.headers['last-modified'], new Date(newest - 50 * MINUTE).toUTCString());
  for (const [query, answer] of [['', first], ['before=1.0.140', second]] as const) {
    for (const path of ['/api/v1/changelog', '/api/changelog']) {
      const again = await get(t, path, query, { 'if-none-match': answer.headers['etag']! });
      assert.is(again.status, 304, `${path} ${query}`);
      assert.is(again.body, null);
      assert.is(again.headers['etag'], answer.headers['etag']);
      assert.is(again.headers['cache-control'], 'public, max-age=300');
      assert.is((await get(t, path, query, { 'if-modified-since': answer.headers['last-modified']! })).status, 304);
    }
  }
  await operateOk(t.app, 'POST', '/releases', {
    version: '1.0.240',
    msiUrl: 'https://downloads.example.com/LegacySheetConverter-1.0.240-x64.msi',
    rolloutPercent: 100,
  });
  const changed = await get(t, '/api/v1/changelog', '', { 'if-none-match': first.headers['etag']! });
  assert.is(changed.status, 200);
  assert.is((bodyJson(changed) as Feed).next_url, `${JSON_URL}?before=1.0.142`);
  assert.is((await get(t, '/api/v1/changelog', 'before=1.0.140', { 'if-none-match': second.headers['etag']! })).status, 304);
});

test('a shipped item stays in its release on every page (the _release.features the app reads)', async () => {
  const t = await releases(60);
  const feature = await operateOk(t.app, 'POST', '/roadmap', {
    title: 'Old charts',
    description: 'Lotus charts.',
    category: 'formats',
    release_version: '1.0.4',
  });
  const last = await jsonPage(t, 'before=1.0.20');
  assert.equal(last.items.find((item) => item._release.version === '1.0.4')!._release.features.map((f) => f.id), [feature['id']]);
  assert.equal((await jsonPage(t)).items.flatMap((item) => item._release.features), [], 'not on the first page');
});

test('before is read as since is: a release version, once; else 400 invalid_parameter naming before', async () => {
  const t = await releases(2);
  for (const query of ['before=3.2', 'before=03.2.0', 'before=latest', 'before=1.0.2&before=1.0.4']) {
    const response = await get(t, '/api/v1/changelog', query);
    assert.is(response.status, 400, query);
    assert.is((bodyJson(response) as { code: string }).code, 'invalid_parameter');
    assert.match((bodyJson(response) as { message: string }).message, 'Query parameter "before"');
  }
  assert.equal(versionsOf(await jsonPage(t, 'before=')), ['1.0.2', '1.0.0'], 'an empty before is absent');
});

test('a flood of distinct since values answers as few bodies as there are releases, each the same as its normalised since', async () => {
  const t = await releases(60);
  const tags = new Set<string>();
  for (let i = 0; i < 240; i++) {
    // 1.0.0 to 1.0.119 and their fourth fields: 240 distinct values, 61 distinct pages.
    const since = i % 2 === 0 ? `1.0.${i / 2}` : `1.0.${(i - 1) / 2}.${i}`;
    const response = await get(t, '/api/v1/changelog', `since=${since}`);
    assert.is(response.status, 200);
    // Past the rate limit's 120 a minute otherwise.
    if (i % 100 === 99) t.clock.advance(MINUTE);
    tags.add(response.headers['etag']!);
  }
  assert.is(tags.size, 60, 'one body per release at or below a since given (1.0.118 has nothing above it: the empty page counts too)');
});

test.run();
