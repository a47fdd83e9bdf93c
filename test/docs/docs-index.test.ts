/**
 * The way into the docs, against the files and the code: docs/README.md gives each kind of reader a path
 * and links every document of docs/; README.md leads there and says what `converter-site-api --help`
 * prints; docs/operating.md describes the Numbers page the code renders.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT } from '../_spawn.ts';

const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');
/** The relative link targets of a markdown text, without their #fragment. */
const linksOf = (markdown: string) => new Set([...markdown.matchAll(/\]\(([^)\s#]+)(?:#[^)\s]*)?\)/g)].map((m) => m[1]!));

const READERS = ['The website developer', 'The embedder', 'The self-hoster', 'The vendor running the business', 'The spec tester'];

test('docs/README.md has a path for each kind of reader and links every document of docs/', () => {
  const index = read('docs/README.md');
  for (const reader of READERS) assert.match(index, new RegExp(`^## ${reader}\\b`, 'm'), `no path for "${reader}"`);
  const links = linksOf(index);
  const docs = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md') && f !== 'README.md');
  assert.equal(docs.filter((doc) => !links.has(doc)), [], 'documents of docs/ that docs/README.md does not link');
  assert.ok(links.has('vectors/'), 'docs/README.md does not link docs/vectors/');
  // The examples are not in the package: the link is the repository's (test/docs.test.ts).
  assert.ok(links.has('https://github.com/converter-site/converter-site-api/tree/main/docs/examples'), 'docs/README.md does not link docs/examples/');
});

test('README.md leads to docs/README.md and lists the observability document', () => {
  const links = linksOf(read('README.md'));
  assert.ok(links.has('docs/README.md'), 'README.md does not link docs/README.md');
  assert.ok(links.has('docs/observability.md'), 'README.md does not link docs/observability.md');
});

test("README.md's sentence on `converter-site-api --help` names exactly the commands it prints", () => {
  const help = spawnSync(process.execPath, ['--import', 'tsx', 'server/cli/main.ts', '--help'], { cwd: ROOT, encoding: 'utf8' });
  const printed = [...help.stdout.matchAll(/^ {2}(\w+) /gm)].map((m) => m[1]!);
  assert.ok(printed.length >= 10, help.stdout);
  const readme = read('README.md');
  const start = readme.indexOf('`converter-site-api --help` lists');
  assert.ok(start >= 0, 'README.md no longer says what `converter-site-api --help` lists');
  const sentence = readme.slice(start, start + readme.slice(start).search(/\.\s/));
  const named = [...sentence.matchAll(/`(\w+)`/g)].map((m) => m[1]!);
  assert.equal(named.sort(), [...printed].sort());
});

test("docs/operating.md's Numbers page row names every chart the page draws, orders included", () => {
  const titles = [...read('adapters/operator-pages/numbers-page.ts').matchAll(/chartCard\(\{ id: '[\w-]+', title: '([^']+)'/g)].map((m) => m[1]!);
  assert.ok(titles.includes('Paid orders'), 'the Numbers page no longer charts its cards the way this test finds them');
  const operating = read('docs/operating.md');
  const row = operating.split('\n').find((line) => line.startsWith('| Numbers (`/pages/numbers`) |'));
  assert.ok(row, 'docs/operating.md has no Numbers page row');
  for (const title of titles) assert.match(row.toLowerCase(), title.toLowerCase(), `the Numbers row does not name "${title}"`);
  assert.not.match(operating, /not (?:on the page|yet charted on the Numbers page)/, 'docs/operating.md says orders are not on the Numbers page');
});

test.run();
