/**
 * The Atom changelog stays well-formed XML 1.0 whatever roadmap text it carries: the operator API and the
 * config file refuse every character XML 1.0 cannot carry (C0 controls but tab, line feed and carriage
 * return; U+FFFE, U+FFFF; unpaired surrogates), as they refuse NUL, with a message naming the field; and
 * text stored before that rule is written to the feed without those characters. Every class of code point
 * is tried, both refused and kept.
 */
import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { operate, operateOk, OPERATOR_TOKEN } from '../_operator.ts';
import { bodyText, coreRequest, createTestApp, type TestApp } from '../_setup.ts';
import { parseConfigFile } from '../../server/config-schema.ts';
import { EXAMPLE_CONFIG } from '../../server/config.ts';

const test = suite('changelog XML text');
const MSI = 'https://downloads.example.com/LegacySheetConverter-2.5.0-x64.msi';

const hex = (c: string) => [...c].map((u) => `U+${u.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`).join(' ');

/** The code points XML 1.0 cannot carry, one per class member (every C0 control but tab, LF and CR). */
const NOT_XML: readonly string[] = [
  ...Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)).filter((c) => !'\t\n\r'.includes(c)),
  '\uFFFE',
  '\uFFFF',
  '\uD800', // a high surrogate alone
  '\uDFFF', // a low surrogate alone
];
/** DEL and C1 controls: XML 1.0 carries them, but no stored text may hold them (core/schemas/stored-text.ts). */
const CONTROLS_XML_CARRIES: readonly string[] = ['\u007F', '\u0080', '\u0085', '\u009F'];
/** What every text may hold, at the edges of the classes above. */
const KEPT: readonly string[] = ['\t', '\n', '\r', ' ', '\u00A0', '\uD7FF', '\uE000', '\uFFFD', '\u{10000}', '\u{1F4C8}', '\u{10FFFF}'];

/** XML 1.0's Char production, for a whole document. */
const XML_DOCUMENT = /^[\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u;

const atom = async (t: TestApp) => {
  const response = await t.app.handle(coreRequest({ path: '/api/v1/changelog.atom' }));
  assert.is(response.status, 200);
  return bodyText(response);
};

/**
 * A shipped feature's item in the Atom content (HTML, escaped once more as XML text), for a title and a
 * description that hold none of `&<>"'`; a carriage return is written as a reference, which a parser keeps.
 */
const shippedItem = (text: string) => {
  const written = text.replaceAll('\r', '&#13;');
  return `&#60;li&#62;&#60;strong&#62;${written}&#60;/strong&#62;: ${written}&#60;/li&#62;`;
};

/** An app with 2.5.0 live for everyone and feature 2 shipped in it. */
async function shipped(): Promise<TestApp> {
  const t = await createTestApp({ operatorToken: OPERATOR_TOKEN });
  await operateOk(t.app, 'POST', '/releases', { version: '2.5.0', msiUrl: MSI, rolloutPercent: 100 });
  return t;
}

test('the operator API refuses each character XML 1.0 cannot carry in a title or a description, on create and on edit', async () => {
  const t = await shipped();
  const before = await operateOk(t.app, 'GET', '/roadmap');
  for (const c of [...NOT_XML, ...CONTROLS_XML_CARRIES]) {
    for (const field of ['title', 'description'] as const) {
      const created = await operate(t.app, 'POST', '/roadmap', { title: 'Sheets', category: 'formats', [field]: `a${c}b` });
      assert.is(created.status, 400, `${hex(c)} in ${field}`);
      assert.is(created.body['code'], 'invalid_request');
      assert.match(String(created.body['message']), new RegExp(`^Field "${field}" (has a NUL character|must not contain control characters)`), hex(c));
      const edited = await operate(t.app, 'PATCH', '/roadmap/2', { [field]: `a${c}b` });
      assert.is(edited.status, 400, `${hex(c)} in ${field} (edit)`);
    }
  }
  const listed = await operateOk(t.app, 'GET', '/roadmap');
  assert.equal(listed, before, 'nothing was created or changed');
});

test('the characters XML 1.0 carries are taken, and the feed carries them as they were given', async () => {
  const t = await shipped();
  const text = `a${KEPT.join('')}b`;
  await operateOk(t.app, 'PATCH', '/roadmap/2', { title: text, description: text, release_version: '2.5.0' });
  const feed = await atom(t);
  assert.ok(XML_DOCUMENT.test(feed), 'the feed is made of XML 1.0 characters only');
  assert.ok(feed.includes(shippedItem(text)), 'the text is in the feed unchanged');
});

test('text stored before the rule is written without the characters XML 1.0 cannot carry, and nothing else is lost', async () => {
  const t = await shipped();
  // Apart, so that the two surrogates stay unpaired.
  const dirty = `a${NOT_XML.join('-')}b${KEPT.join('')}c`;
  const clean = `a${'-'.repeat(NOT_XML.length - 1)}b${KEPT.join('')}c`;
  await t.storage.change((tx) => tx.features.update(2, { title: dirty, description: dirty, release_version: '2.5.0' }));
  const feed = await atom(t);
  assert.ok(XML_DOCUMENT.test(feed), 'the feed is made of XML 1.0 characters only');
  assert.ok(feed.includes(shippedItem(clean)), `the feature is written as ${JSON.stringify(clean)}`);
  const json = await t.app.handle(coreRequest({ path: '/api/v1/changelog' }));
  assert.ok(bodyText(json).includes(JSON.stringify(dirty).slice(1, -1)), 'the JSON feed keeps the stored text as it is (JSON carries it)');
});

test('a roadmap feature of the config file with such a character stops the start, naming the field', () => {
  const example = JSON.parse(readFileSync(EXAMPLE_CONFIG, 'utf8')) as { roadmap: Record<string, unknown>[] };
  for (const c of NOT_XML) {
    const roadmap = example.roadmap.map((feature, i) => (i === 1 ? { ...feature, description: `x${c}` } : feature));
    assert.throws(
      () => parseConfigFile({ ...example, roadmap }, 'config.json'),
      (error: Error) => error.message.startsWith('config.json: field "roadmap.1.description" must not contain control characters'),
      hex(c),
    );
  }
});

test.run();
