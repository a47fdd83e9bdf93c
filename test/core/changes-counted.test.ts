/**
 * Every change core opens is counted in one place (core/ports/change.ts): `countCommittedChanges` counts a
 * change once it committed, never one that threw, and no file of core opens a change on the storage itself.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createMemoryStorage } from '../../adapters/memory/index.ts';
import { countCommittedChanges } from '../../core/ports/change.ts';
import { ROOT } from '../_spawn.ts';

const CORE = join(ROOT, 'core');

/** Every TypeScript file under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : []
  );
}

test('a change is counted once committed: not while its work runs, not when it throws', async () => {
  const storage = createMemoryStorage();
  const changes = countCommittedChanges(storage);
  const seenInside: number[] = [];
  const result = await changes.change(async (tx) => {
    seenInside.push(changes.count());
    return (await tx.releases.listReleases()).length;
  });
  assert.equal([result, seenInside, changes.count()], [0, [0], 1]);
  const failed = await changes.change(async () => {
    throw new Error('refused');
  }).then(() => 'committed', (error: Error) => error.message);
  assert.equal([failed, changes.count()], ['refused', 1]);
});

test('no file of core opens a change on the storage itself: each goes through CommittedChanges', () => {
  const opened = sources(CORE)
    .filter((file) => !file.endsWith(join('ports', 'change.ts')))
    .filter((file) => /storage\.change\(/.test(readFileSync(file, 'utf8')))
    .map((file) => relative(ROOT, file));
  assert.equal(opened, []);
});

test.run();
