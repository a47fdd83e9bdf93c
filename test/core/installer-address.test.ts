/**
 * Installer addresses are ASCII on the wire (issue 42): an address published with `ł` or `ä` is stored
 * percent-encoded (UTF-8), and the publish answer, GET /releases, GET /version's body, GET /download's Location
 * and Release-Notes, and the bytes the signature covers are that same text, which an independent verifier
 * (test/_update-signature.ts, node:crypto) accepts. A non-ASCII host is refused with a 400 naming the
 * character; the config file's baseline addresses follow the same rule.
 */
import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as v from 'valibot';
import { createLicenseIssuer, generateSigningKey, publicKeyOf } from '../../core/licensing/license.ts';
import { SiteContentSchema } from '../../core/schemas/content.ts';
import { bodyJson, bodyText, coreRequest, createTestApp, type TestApp } from '../_setup.ts';
import { refusal } from '../_update-signature.ts';

const TOKEN = 'installer-address-0123456789-'.padEnd(40, 't');
const WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64)';

interface Context {
  t: TestApp;
  publicKey: string;
}
const test = suite<Context>('installer addresses are ASCII on the wire', {} as Context);

test.before.each(async (context) => {
  const key = await generateSigningKey();
  context.publicKey = await publicKeyOf(key);
  context.t = await createTestApp({ operatorToken: TOKEN, licenses: await createLicenseIssuer(key) });
});

const operator = ({ t }: Context, method: string, path: string, json?: unknown) =>
  t.app.operator!.handle(coreRequest({ method, path, headers: { authorization: `Bearer ${TOKEN}` }, ...(json === undefined ? {} : { json }) }));

const plain = (headers: Record<string, string | undefined>) =>
  Object.fromEntries(Object.entries(headers).filter((e): e is [string, string] => e[1] !== undefined));

/** Printable ASCII only: what a header value must be for every runtime to send it as it is. */
const ASCII = /^[\x20-\x7e]+$/;

for (
  const [name, typed, stored] of [
    [
      'ł (which no header can carry: every download was a 500)',
      'https://downloads.example.com/2.6.0/Konwerter-ł.msi',
      'https://downloads.example.com/2.6.0/Konwerter-%C5%82.msi',
    ],
    [
      'ä (which went out as a raw byte the signature did not cover)',
      'https://downloads.example.com/2.6.0/Konverter-für-Tabellen.msi?lang=dä#ä',
      'https://downloads.example.com/2.6.0/Konverter-f%C3%BCr-Tabellen.msi?lang=d%C3%A4#%C3%A4',
    ],
  ] as const
) {
  test(`an address with ${name} is stored percent-encoded, and GET /version and GET /download serve and sign exactly that`, async (context) => {
    const notes = `${typed.split('?')[0]!.replace('.msi', '')}/notatki-źródło`;
    const published = await operator(context, 'POST', '/releases', { version: '2.6.0', msiUrl: typed, notesUrl: notes, rolloutPercent: 100 });
    assert.is(published.status, 201, bodyText(published));
    const view = bodyJson(published) as { msiUrl: string; notesUrl: string };
    assert.is(view.msiUrl, stored);
    assert.is(view.notesUrl, encodeURI(notes));
    assert.match(view.notesUrl, ASCII);
    const listed = bodyJson(await operator(context, 'GET', '/releases')) as { releases: { msiUrl: string }[] };
    assert.equal(listed.releases.map((r) => r.msiUrl), [stored]);

    context.t.clock.advance(1000);
    const now = Math.floor(context.t.clock.now() / 1000);
    const check = await context.t.app.handle(coreRequest({ path: '/api/v1/version' }));
    assert.is(check.status, 200);
    assert.is(bodyText(check), JSON.stringify({ version: '2.6.0', downloadUrl: stored }));
    assert.is(refusal({ status: 200, headers: plain(check.headers), body: bodyText(check) }, context.publicKey, now), null);

    const redirect = await context.t.app.handle(coreRequest({ path: '/api/v1/download', headers: { 'user-agent': WINDOWS } }));
    assert.is(redirect.status, 302);
    assert.equal([redirect.headers['location'], redirect.headers['release-notes'], redirect.headers['release-version']], [stored, view.notesUrl, '2.6.0']);
    for (const header of ['location', 'release-notes', 'signature-input', 'signature']) assert.match(redirect.headers[header]!, ASCII, header);
    assert.is(refusal({ status: 302, headers: plain(redirect.headers), body: '' }, context.publicKey, now, { tag: 'update', version: '2.6.0' }), null);
  });
}

test('an address already percent-encoded is stored as written: encoding is done once, never twice', async (context) => {
  const msiUrl = 'https://downloads.example.com/Konwerter-%C5%82.msi?x=%41';
  const published = await operator(context, 'POST', '/releases', { version: '2.6.0', msiUrl, rolloutPercent: 100 });
  assert.is((bodyJson(published) as { msiUrl: string }).msiUrl, msiUrl);
  const redirect = await context.t.app.handle(coreRequest({ path: '/api/v1/download', headers: { 'user-agent': WINDOWS } }));
  assert.is(redirect.headers['location'], msiUrl);
});

test('a non-ASCII host is refused with a 400 naming the character, and nothing is stored', async (context) => {
  const answer = await operator(context, 'POST', '/releases', {
    version: '2.6.0',
    msiUrl: 'https://pobieranie.przykład.pl/Konwerter.msi',
    rolloutPercent: 100,
  });
  assert.is(answer.status, 400);
  assert.equal(bodyJson(answer), {
    code: 'invalid_request',
    message: 'Field "msiUrl" has "ł" (U+0142) in its host name: give the host in its ASCII form (an internationalized name as its xn-- name); ' +
      'non-ASCII characters of the path, query and fragment are percent-encoded for you.',
    resolution: 'Fix the request body or query as the message says; /openapi.json describes every field.',
  });
  const notes = await operator(context, 'POST', '/releases', {
    version: '2.6.0',
    msiUrl: 'https://downloads.example.com/a.msi',
    notesUrl: 'https://😀.example.com/notes',
    rolloutPercent: 100,
  });
  assert.is((bodyJson(notes) as { message: string }).message.startsWith('Field "notesUrl" has "😀" (U+1F600) in its host name'), true);
  assert.equal((bodyJson(await operator(context, 'GET', '/releases')) as { releases: unknown[] }).releases, []);
});

test('an address with an unpaired surrogate (no UTF-8 form) is refused with a 400, not a 500', async (context) => {
  const answer = await operator(context, 'POST', '/releases', { version: '2.6.0', msiUrl: 'https://downloads.example.com/a\uD800.msi', rolloutPercent: 100 });
  assert.equal([answer.status, (bodyJson(answer) as { message: string }).message], [
    400,
    'Field "msiUrl" must be valid Unicode (it holds an unpaired surrogate).',
  ]);
});

test('an address that grows past 2,048 characters once encoded is refused, naming why', async (context) => {
  const msiUrl = `https://downloads.example.com/${'ł'.repeat(400)}.msi`;
  assert.ok(msiUrl.length <= 2048, 'as typed it fits');
  const answer = await operator(context, 'POST', '/releases', { version: '2.6.0', msiUrl, rolloutPercent: 100 });
  assert.is(answer.status, 400);
  assert.is(
    (bodyJson(answer) as { message: string }).message,
    'Field "msiUrl" must be at most 2048 characters once its non-ASCII characters are percent-encoded.',
  );
});

test("the config file's baseline addresses follow the same rule: percent-encoded when read, a non-ASCII host refused", () => {
  const example = JSON.parse(readFileSync(new URL('../../example/config.json', import.meta.url), 'utf8')) as { offer: unknown };
  const content = (download: Record<string, string>) => ({ offer: example.offer, download, roadmap: [] });
  const read = v.parse(
    SiteContentSchema,
    content({ msiUrl: 'https://downloads.example.com/Konwerter-ł.msi', nonWindowsUrl: 'https://www.example.com/tylko-windows-ą' }),
  );
  assert.equal(read.download, { msiUrl: 'https://downloads.example.com/Konwerter-%C5%82.msi', nonWindowsUrl: 'https://www.example.com/tylko-windows-%C4%85' });
  const issues = (download: Record<string, string>) =>
    v.safeParse(SiteContentSchema, content(download)).issues?.map((issue) => `${v.getDotPath(issue)}: ${issue.message}`);
  assert.equal(issues({ msiUrl: 'https://bücher.example/x.msi' }), [
    'download.msiUrl: has "ü" (U+00FC) in its host name: give the host in its ASCII form (an internationalized name as its xn-- name); non-ASCII characters of the path, query and fragment are percent-encoded for you',
  ]);
  assert.equal(issues({ msiUrl: 'https://downloads.example.com/a.msi\r' }), ['download.msiUrl: must have no whitespace or control characters']);
});

test.run();
