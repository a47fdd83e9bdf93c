/**
 * The changelog (GET /api/v1/changelog, JSON Feed 1.1, and /changelog.atom, Atom): only releases live for
 * everyone (100 % in force, not pulled), dated when they got there, with the visible roadmap items they
 * shipped; since=; ETag, Last-Modified and 304; public Cache-Control; rate-limit headers and the /api
 * alias. Both feeds are read by a third-party parser (feedsmith) and the JSON one is checked against
 * JSON Feed 1.1 as a JSON Schema.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parseAtomFeed, parseJsonFeed } from 'feedsmith';
import { operateOk, OPERATOR_TOKEN } from '../_operator.ts';
import { bodyJson, bodyText, coreRequest, createTestApp, type TestApp } from '../_setup.ts';
import { JSON_FEED_1_1_SCHEMA } from '../_json-feed-schema.ts';

const test = suite('changelog');
const MINUTE = 60_000;
const MSI = (version: string) => `https://downloads.example.com/LegacySheetConverter-${version}-x64.msi`;
const NOTES = (version: string) => `https://www.example.com/releases/${version}`;
const BASE = 'http://localhost:8080';
const SINCE_GRAMMAR = 'Query parameter "since" must be a release version: major.minor.build such as 2.5.0, with an optional fourth ' +
  'field, no leading zeros, at most 255.255.65535.65535.';

const ajv = new Ajv2020({ strict: true, strictRequired: false, allErrors: true });
addFormats(ajv);
const validJsonFeed = ajv.compile(JSON_FEED_1_1_SCHEMA);

const get = (t: TestApp, path: string, headers: Record<string, string> = {}, query?: string) =>
  t.app.handle(coreRequest({ path, headers, ...(query === undefined ? {} : { query }) }));

interface Feed {
  items: { id: string; title: string; date_published: string; _release: { version: string; features: { id: number; title: string }[] } }[];
}
const versionsIn = async (t: TestApp, query?: string) =>
  (bodyJson(await get(t, '/api/v1/changelog', {}, query)) as Feed).items.map((item) => item._release.version);

/** 2.5.0 at 100 % (feature 2 names it), then 2.6.0 ramping 10 -> 100 % an hour later, which feature 3 names. */
async function releases(): Promise<TestApp & { start: number }> {
  const t = await createTestApp({ operatorToken: OPERATOR_TOKEN });
  const start = t.clock.now();
  await operateOk(t.app, 'POST', '/releases', { version: '2.5.0', msiUrl: MSI('2.5.0'), notesUrl: NOTES('2.5.0'), rolloutPercent: 100 });
  t.clock.advance(MINUTE);
  await operateOk(t.app, 'POST', '/releases', {
    version: '2.6.0',
    msiUrl: MSI('2.6.0'),
    rolloutPercent: 10,
    critical: true,
    ramp: { steps: [10, 100], everyMinutes: 60 },
  });
  await operateOk(t.app, 'PATCH', '/roadmap/3', { release_version: '2.6.0' });
  return { ...t, start };
}

test('a release at 100 % is in both feeds with its shipped items; a staged one is not yet', async () => {
  const t = await releases();
  const response = await get(t, '/api/v1/changelog');
  assert.is(response.status, 200);
  assert.is(response.headers['content-type'], 'application/feed+json');
  assert.is(response.headers['cache-control'], 'public, max-age=300');
  assert.is(response.headers['ratelimit-limit'], '120');
  assert.is(response.headers['last-modified'], new Date(t.start).toUTCString());
  assert.match(response.headers['etag']!, /^"[0-9a-f]{32}"$/);
  assert.equal(bodyJson(response), {
    version: 'https://jsonfeed.org/version/1.1',
    title: 'Legacy Sheet Converter changelog',
    description: 'The releases of Legacy Sheet Converter that reached every user, with the roadmap items each shipped.',
    feed_url: `${BASE}/api/v1/changelog`,
    language: 'en',
    items: [
      {
        id: `${BASE}/api/v1/changelog#v2.5.0`,
        url: NOTES('2.5.0'),
        title: 'Version 2.5.0',
        content_text:
          'Version 2.5.0 is out for everyone.\n\nNew:\n- Keep cell formulas in XLSX output: Translate 1-2-3 @functions into Excel formulas instead of writing computed values.\n\nRelease notes: https://www.example.com/releases/2.5.0',
        content_html:
          '<p>Version 2.5.0 is out for everyone.</p><p>New:</p><ul><li><strong>Keep cell formulas in XLSX output</strong>: Translate 1-2-3 @functions into Excel formulas instead of writing computed values.</li></ul><p><a href="https://www.example.com/releases/2.5.0">Release notes</a></p>',
        date_published: new Date(t.start).toISOString(),
        _release: {
          version: '2.5.0',
          reached_everyone_at: new Date(t.start).toISOString(),
          notes_url: NOTES('2.5.0'),
          critical: false,
          features: [{
            id: 2,
            title: 'Keep cell formulas in XLSX output',
            description: 'Translate 1-2-3 @functions into Excel formulas instead of writing computed values.',
          }],
        },
      },
    ],
  });
  const atom = await get(t, '/api/v1/changelog.atom');
  assert.is(atom.status, 200);
  assert.is(atom.headers['content-type'], 'application/atom+xml; charset=utf-8');
  assert.is(atom.headers['cache-control'], 'public, max-age=300');
  const parsed = parseAtomFeed(bodyText(atom));
  assert.is(parsed.id, `${BASE}/api/v1/changelog.atom`);
  assert.equal(parsed.entries?.map((entry) => [entry.id, entry.title?.value, entry.updated]), [[
    `${BASE}/api/v1/changelog#v2.5.0`,
    'Version 2.5.0',
    new Date(t.start).toISOString(),
  ]]);
});

test('the ramp reaching 100 % ships 2.6.0, dated by its plan; a pull un-ships it and a restore keeps its date', async () => {
  const t = await releases();
  const full = t.start + MINUTE + 60 * MINUTE;
  t.clock.set(full + 30 * MINUTE);
  assert.equal(await versionsIn(t), ['2.6.0', '2.5.0']);
  const feed = bodyJson(await get(t, '/api/v1/changelog')) as Feed & { items: { title: string; tags?: string[] }[] };
  assert.is(feed.items[0]!.date_published, new Date(full).toISOString());
  assert.is(feed.items[0]!.title, 'Version 2.6.0 (critical update)');
  assert.equal(feed.items[0]!.tags, ['critical']);
  assert.equal(feed.items[0]!._release.features.map((f) => f.id), [3]);
  await operateOk(t.app, 'POST', '/releases/2.6.0/pull');
  assert.equal(await versionsIn(t), ['2.5.0']);
  t.clock.advance(24 * 60 * MINUTE);
  await operateOk(t.app, 'POST', '/releases/2.6.0/restore');
  assert.equal(await versionsIn(t), ['2.6.0', '2.5.0']);
  assert.is((bodyJson(await get(t, '/api/v1/changelog')) as Feed).items[0]!.date_published, new Date(full).toISOString());
});

test('since=<version> gives only the releases above it; a bad or repeated since is 400 invalid_parameter', async () => {
  const t = await releases();
  t.clock.advance(2 * 60 * MINUTE);
  assert.equal(await versionsIn(t, 'since=2.5.0'), ['2.6.0']);
  assert.equal(await versionsIn(t, 'since=2.4.1'), ['2.6.0', '2.5.0']);
  assert.equal(await versionsIn(t, 'since=2.6.0'), []);
  const atom = parseAtomFeed(bodyText(await get(t, '/api/v1/changelog.atom', {}, 'since=2.5.0')));
  assert.equal(atom.entries?.map((entry) => entry.id), [`${BASE}/api/v1/changelog#v2.6.0`]);
  for (const query of ['since=latest', 'since=2.5.0&since=2.6.0']) {
    const response = await get(t, '/api/v1/changelog', {}, query);
    assert.is(response.status, 400, query);
    assert.is(response.headers['cache-control'], 'no-store');
    assert.is((bodyJson(response) as { code: string }).code, 'invalid_parameter');
  }
  assert.equal(bodyJson(await get(t, '/api/v1/changelog', {}, 'since=latest')), {
    code: 'invalid_parameter',
    message: SINCE_GRAMMAR,
    resolution: 'Fix the query parameter as the message says; /openapi.json describes the allowed values.',
  });
});

test('since is read with the release version grammar: 03.2.0, 3.2 and 4.0 are 400, not a release above every other', async () => {
  const t = await releases();
  t.clock.advance(2 * 60 * MINUTE);
  for (const path of ['/api/v1/changelog', '/api/v1/changelog.atom', '/api/changelog']) {
    for (const since of ['03.2.0', '3.2', '4.0', '2.5.0.01', '256.0.0', '2.5.0-beta.1']) {
      const response = await get(t, path, {}, `since=${since}`);
      assert.is(response.status, 400, `${path} since=${since}`);
      assert.equal(bodyJson(response), {
        code: 'invalid_parameter',
        message: SINCE_GRAMMAR,
        resolution: 'Fix the query parameter as the message says; /openapi.json describes the allowed values.',
      });
    }
  }
  // The grammar's own spellings still answer, the fourth field included.
  assert.equal(await versionsIn(t, 'since=2.5.0.1'), ['2.6.0']);
  assert.equal(await versionsIn(t, 'since=0.0.0'), ['2.6.0', '2.5.0']);
});

test('If-None-Match with the ETag, or If-Modified-Since at Last-Modified, is 304 without a body; a change gives a new ETag', async () => {
  const t = await releases();
  for (const path of ['/api/v1/changelog', '/api/v1/changelog.atom', '/api/changelog']) {
    const first = await get(t, path);
    const etag = first.headers['etag']!;
    const again = await get(t, path, { 'if-none-match': `W/"other", ${etag}` });
    assert.is(again.status, 304, path);
    assert.is(again.body, null);
    assert.is(again.headers['etag'], etag);
    assert.is(again.headers['cache-control'], 'public, max-age=300');
    assert.is(again.headers['ratelimit-limit'], '120');
    assert.is((await get(t, path, { 'if-modified-since': first.headers['last-modified']! })).status, 304, path);
    // If-None-Match decides when both are sent (RFC 9110 13.2.2).
    assert.is((await get(t, path, { 'if-none-match': '"stale"', 'if-modified-since': first.headers['last-modified']! })).status, 200, path);
    assert.is((await get(t, path, { 'if-modified-since': new Date(t.start - 1000).toUTCString() })).status, 200, path);
  }
  const before = (await get(t, '/api/v1/changelog')).headers['etag'];
  t.clock.advance(2 * 60 * MINUTE);
  const after = await get(t, '/api/v1/changelog', { 'if-none-match': before! });
  assert.is(after.status, 200);
  assert.is.not(after.headers['etag'], before);
});

/** A header parameter's JSON Schema, as /openapi.json declares it for an operation. */
async function headerSchema(t: TestApp, operationId: string, name: string): Promise<object> {
  const doc = bodyJson(await get(t, '/openapi.json')) as {
    paths: Record<string, Record<string, { operationId: string; parameters?: { name: string; in: string; schema: object }[] }>>;
  };
  const operation = Object.values(doc.paths).flatMap((path) => Object.values(path)).find((op) => op.operationId === operationId)!;
  return operation.parameters!.find((parameter) => parameter.in === 'header' && parameter.name === name)!.schema;
}

test('If-None-Match is declared as RFC 9110 writes it, and the server accepts exactly that (400 for anything else)', async () => {
  const t = await releases();
  const etag = (await get(t, '/api/v1/changelog')).headers['etag']!;
  const accepted = ['*', etag, `W/${etag}`, ` "other" , W/${etag} `, `"a,b", ${etag}`, '"other"', '""', '', ', ,', `"other",,${etag}`];
  const refused = ['abc', `${etag.slice(1, -1)}`, `${etag} ${etag}`, `*, ${etag}`, 'W/abc', '"a"b"', 'w/"a"', `"${'a'.repeat(1030)}"`, '"\u0000"'];
  // Commas and spaces that a regex with two readings of each space took 2^500 steps over: answered at once.
  refused.push(`${' ,'.repeat(500)}x`, `${', \t'.repeat(300)}"`);
  for (const operationId of ['getChangelog', 'getChangelogAtom']) {
    const declared = ajv.compile(await headerSchema(t, operationId, 'If-None-Match'));
    for (const value of accepted) assert.ok(declared(value), `${operationId} declares ${value}`);
    for (const value of refused) assert.not.ok(declared(value), `${operationId} refuses ${value}`);
    // If-Modified-Since takes any string: one that is not an HTTP-date is ignored (RFC 9110 13.1.3).
    const modified = ajv.compile(await headerSchema(t, operationId, 'If-Modified-Since'));
    assert.ok(modified('x'.repeat(2000)));
  }
  for (const path of ['/api/v1/changelog', '/api/v1/changelog.atom', '/api/changelog']) {
    const tag = (await get(t, path)).headers['etag']!;
    for (const value of ['*', tag, `W/${tag}`, ` "other" , W/${tag} `, `"other",,${tag}`]) {
      assert.is((await get(t, path, { 'if-none-match': value })).status, 304, `${path} ${value}`);
    }
    for (const value of ['"other"', '""', '', ', ,', `"${tag.slice(1, -1)},x"`]) {
      assert.is((await get(t, path, { 'if-none-match': value })).status, 200, `${path} ${value}`);
    }
    for (const value of refused) {
      const response = await get(t, path, { 'if-none-match': value });
      assert.is(response.status, 400, `${path} ${value}`);
      assert.is(response.headers['cache-control'], 'no-store');
      assert.equal(bodyJson(response), {
        code: 'invalid_parameter',
        message: value.length > 1024
          ? 'Header "If-None-Match" must be at most 1024 characters.'
          : 'Header "If-None-Match" must be * or a list of entity-tags such as "3f2a" or W/"3f2a" (RFC 9110 section 13.1.2).',
        resolution: 'Send the ETag of an earlier answer as it came (or several, comma-separated, or *), or leave the header out.',
      }, `${path} ${value}`);
    }
    assert.is((await get(t, path, { 'if-modified-since': 'x'.repeat(2000) })).status, 200, path);
  }
});

test('with no release live for everyone: an empty feed, no Last-Modified, still valid', async () => {
  const t = await createTestApp();
  const response = await get(t, '/api/v1/changelog');
  assert.is(response.status, 200);
  assert.is(response.headers['last-modified'], undefined);
  assert.equal((bodyJson(response) as Feed).items, []);
  assert.ok(validJsonFeed(bodyJson(response)), JSON.stringify(validJsonFeed.errors));
  assert.equal(parseAtomFeed(bodyText(await get(t, '/api/v1/changelog.atom'))).entries, undefined);
});

test('the JSON Feed is valid JSON Feed 1.1 and a third-party parser reads the same items from both feeds', async () => {
  const t = await releases();
  t.clock.advance(2 * 60 * MINUTE);
  const json = bodyJson(await get(t, '/api/v1/changelog'));
  assert.ok(validJsonFeed(json), JSON.stringify(validJsonFeed.errors));
  const parsedJson = parseJsonFeed(json);
  const parsedAtom = parseAtomFeed(bodyText(await get(t, '/api/v1/changelog.atom')));
  assert.equal(
    parsedJson.items?.map((item) => [item.id, item.title, item.date_published, item.content_html]),
    parsedAtom.entries?.map((entry) => [entry.id, entry.title?.value, entry.published, entry.content?.value]),
  );
  // The JSON Schema check can fail: an item without content is refused.
  assert.not.ok(validJsonFeed({ version: 'https://jsonfeed.org/version/1.1', title: 't', items: [{ id: '1' }] }));
});

test.run();
