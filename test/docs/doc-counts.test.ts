/**
 * The counts the docs state about the code and the docs themselves, each against what it counts (issue 47:
 * docs/README.md said "Sixteen documents" and listed 18). Counts that record a measurement say where it
 * was measured (README.md: "at 5134e82 its 85 files") and are not checked here. Reads files only.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ERROR_CATALOGUE } from '../../core/http/errors.ts';
import { findTestFiles, tierOf, TIERS } from '../../scripts/test-tiers.ts';

const ROOT = join(import.meta.dirname, '../..');
const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');

const SMALL = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];

/** A number below 100 as the docs spell it: "three", "twenty", "twenty-one". */
function spelled(n: number): string {
  if (n < 20) return SMALL[n]!;
  return TENS[Math.floor(n / 10)]! + (n % 10 === 0 ? '' : `-${SMALL[n % 10]}`);
}

/** The one match of `pattern` in a document, failing when it is gone (the sentence was reworded). */
function stated(path: string, pattern: RegExp): RegExpExecArray {
  const found = pattern.exec(read(path));
  assert.ok(found, `${path} no longer says ${pattern} (update this test with the sentence)`);
  return found;
}

test('docs/README.md counts the documents of docs/ and links each of them under "Every document"', () => {
  const documents = readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md') && name !== 'README.md');
  assert.is(stated('docs/README.md', /^(\w+(?:-\w+)?) documents,/m)[1]!.toLowerCase(), spelled(documents.length));
  const every = read('docs/README.md').split('## Every document')[1] ?? '';
  const linked = [...every.matchAll(/\]\(([\w-]+\.md)\)/g)].map((m) => m[1]!);
  assert.equal(linked.sort(), documents.sort());
});

test('README.md: the tiers `npm test` runs, and the files of test/http/ now answered in process', () => {
  assert.is(stated('README.md', /`npm test` runs (\w+) tiers/)[1], spelled(TIERS.length));
  const test = join(ROOT, 'test');
  const inProcess = findTestFiles(join(test, 'http')).filter((file) => tierOf(relative(test, file).split('\\').join('/')) === 'unit');
  assert.is(Number(stated('README.md', /(\d+) files of `test\/http\/` that started a server/)[1]), inProcess.length);
});

test('docs/embedding.md: the dependencies the core imports', () => {
  const bare = new Set<string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) { for (const m of read(path).matchAll(/from '([^.'][^']*)'/g)) bare.add(m[1]!); }
    }
  };
  walk('core');
  const [, count, names] = stated('docs/embedding.md', /the core and its (\w+) small dependencies, ([^,]+),/);
  assert.is(count, spelled(bare.size));
  assert.equal(names!.replace(/\s+/g, ' ').split(' and ').sort(), [...bare].sort());
});

test('docs/decisions.md: the number of error codes', () => {
  assert.is(Number(stated('docs/decisions.md', /\| (\d+) codes, listed in/)[1]), Object.keys(ERROR_CATALOGUE).length);
});

test.run();
