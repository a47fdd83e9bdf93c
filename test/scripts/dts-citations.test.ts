/**
 * scripts/dts-citations.ts: what it rewrites in a .d.ts comment and what it leaves. The packed files
 * themselves are checked by test/package/shipped-citations.test.ts.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { citeRepository, isShipped } from '../../scripts/dts-citations.ts';

const KINDS: Record<string, 'file' | 'folder'> = {
  'core/ports/change.ts': 'file',
  'core/mail': 'folder',
  'docs/examples': 'folder',
  'docs/storage.md': 'file',
  'test/core/changes-counted.test.ts': 'file',
};
const kindOf = (path: string) => KINDS[path] ?? null;
const BLOB = 'https://github.com/converter-site/converter-site-api/blob/main/';
const TREE = 'https://github.com/converter-site/converter-site-api/tree/main/';

test('an unshipped file or folder becomes its repository URL (a folder without its final slash), its punctuation kept', () => {
  assert.is(citeRepository('/** The unit (core/ports/change.ts). */', kindOf), `/** The unit (${BLOB}core/ports/change.ts). */`);
  assert.is(citeRepository(' * texts in core/mail/, and `docs/examples`.', kindOf), ` * texts in ${TREE}core/mail, and \`${TREE}docs/examples\`.`);
  assert.is(citeRepository('(test/core/changes-counted.test.ts)', kindOf), `(${BLOB}test/core/changes-counted.test.ts)`);
});

test('a shipped doc, a URL, a module specifier and a path the repository does not hold stay as written', () => {
  for (
    const text of [
      ' * see docs/storage.md#the-types',
      ` * ${BLOB}core/ports/change.ts`,
      "import { x } from './core/ports/change.ts';",
      "declare const p: 'core/ports/change.ts';",
      ' * (core/ports/gone.ts)',
    ]
  ) {
    assert.is(citeRepository(text, kindOf), text);
  }
});

test('what the package ships follows package.json "files"', () => {
  assert.ok(isShipped('docs/storage.md') && isShipped('docs/vectors/update-signatures.json') && isShipped('example/config.json'));
  assert.not.ok(isShipped('docs/examples/site.ts') || isShipped('docs/schema.sql') || isShipped('core/app.ts'));
});

test.run();
