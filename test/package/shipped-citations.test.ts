/**
 * The packed .d.ts files cite only what a reader of the package can open: a repository path in a comment
 * is a file the tarball holds (docs/*.md), or is written as its repository URL (scripts/dts-citations.ts
 * does that when the package is built). Before, the comments cited 49 files the package does not ship
 * (issue 52).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CITED_PATH, REPOSITORY } from '../../scripts/dts-citations.ts';
import { packedTarball } from './_packed.ts';

const dir = mkdtempSync(join(tmpdir(), 'shipped-citations-'));
execFileSync('tar', ['-xzf', packedTarball(), '-C', dir]);
const packed = execFileSync('tar', ['-tzf', packedTarball()], { encoding: 'utf8' }).trim().split('\n').map((file) => file.replace(/^package\//, ''));
test.after(() => rmSync(dir, { recursive: true, force: true }));

test('every repository path a packed .d.ts cites is in the package or written as its repository URL', () => {
  const declarations = packed.filter((file) => file.endsWith('.d.ts'));
  assert.ok(declarations.length >= 17, `${declarations.length} .d.ts files`);
  const unshipped = new Set<string>();
  let urls = 0;
  for (const file of declarations) {
    const text = readFileSync(join(dir, 'package', file), 'utf8');
    urls += text.split(`${REPOSITORY}/blob/main/`).length + text.split(`${REPOSITORY}/tree/main/`).length - 2;
    for (const [path] of text.matchAll(CITED_PATH)) {
      if (!packed.includes(path) && !packed.some((shipped) => shipped.startsWith(`${path.replace(/\/$/, '')}/`))) unshipped.add(`${file}: ${path}`);
    }
  }
  assert.equal([...unshipped], [], 'cited in a .d.ts, not shipped, and not a repository URL');
  // The rewrite ran: the sources cite dozens of unshipped files.
  assert.ok(urls >= 40, `${urls} repository URLs in the .d.ts files`);
});

test.run();
