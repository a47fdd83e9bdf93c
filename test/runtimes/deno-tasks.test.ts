/**
 * deno.json's tasks work with the Deno from npm: `deno task test` runs the Deno tests green (the binding's,
 * the data-dir lock's, and every case of the storage contract on the memory storage) and
 * `deno task check` type-checks core/, the Deno binding and the Deno entry points.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT } from '../_spawn.ts';
import { createMemoryStorage } from '../../adapters/memory/index.ts';
import { storageConformanceCases } from '../../adapters/storage-conformance/index.ts';

/** The storage contract's cases, with the rate-limit window one (test/deno/storage_conformance_test.ts ends windows). */
const CONTRACT_CASES = storageConformanceCases({ create: () => createMemoryStorage(), endRateLimitWindows: () => {} }).length;

function denoTask(name: string): { status: number | null; output: string } {
  const result = spawnSync(join(ROOT, 'node_modules/.bin/deno'), ['task', name], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  if (result.error) throw new Error(`deno could not be run: ${result.error.message}`);
  // Deno colours its output whenever FORCE_COLOR is set, even to 0.
  return { status: result.status, output: (result.stdout + result.stderr).replace(/\x1b\[[0-9;]*m/g, '') };
}

test('deno task test passes', () => {
  const { status, output } = denoTask('test');
  assert.is(status, 0, output);
  assert.match(output, `ok | ${5 + CONTRACT_CASES} passed | 0 failed`);
});

test('deno task check passes', () => {
  const { status, output } = denoTask('check');
  assert.is(status, 0, output);
  assert.match(output, /Check .*core\/app\.ts/);
});

test.run();
