/**
 * The packed package reads on its own: every relative link of its README and of its docs resolves inside the
 * tarball (the docs are shipped; links to the repository's other files are absolute, test/docs.test.ts). The simulator's startup warning names an absolute address
 * (test/server/standalone.test.ts).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, normalize } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { packedTarball } from './_packed.ts';

const dir = mkdtempSync(join(tmpdir(), 'readme-links-'));
execFileSync('tar', ['-xzf', packedTarball(), '-C', dir]);
const packed = new Set(execFileSync('tar', ['-tzf', packedTarball()], { encoding: 'utf8' }).trim().split('\n').map((file) => file.replace(/^package\//, '')));
test.after(() => rmSync(dir, { recursive: true, force: true }));

/** The relative link targets of a markdown file, without their #fragment. */
function relativeLinks(file: string): string[] {
  const text = readFileSync(join(dir, 'package', file), 'utf8');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!)
    .filter((target) => !/^[a-z]+:/.test(target) && !target.startsWith('#'))
    .map((target) => target.split('#')[0]!);
}

test('every relative link of the packed README resolves to a file in the package', () => {
  const links = relativeLinks('README.md');
  assert.ok(links.length >= 20, `${links.length} relative links`);
  for (const link of links) assert.ok(packed.has(normalize(link)), `README.md links to ${link}, which the package does not hold`);
});

test('every relative link of every markdown file in the package resolves inside it', () => {
  let checked = 0;
  for (const doc of [...packed].filter((file) => file.endsWith('.md'))) {
    for (const link of relativeLinks(doc)) {
      const target = normalize(join(dirname(doc), link));
      checked++;
      assert.ok(existsSync(join(dir, 'package', target)), `${doc} links to ${link}, which the package does not hold`);
    }
  }
  assert.ok(checked >= 300, `${checked} relative links`);
});

test.run();
