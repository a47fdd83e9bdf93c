/**
 * `converter-site-api/storage-conformance` from the packed package, as an embedder runs it: the memory
 * storage passes every case under node:test and under uvu; a memory storage whose vote toggle forgets the
 * vote fails, and the failure names the case; the storage faces' types check in a consumer.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { storageConformanceCases } from '../../adapters/storage-conformance/index.ts';
import { createMemoryStorage } from '../../adapters/memory/index.ts';
import { ROOT } from '../_spawn.ts';
import { installProject, packedTarball } from './_packed.ts';

const dir = mkdtempSync(join(tmpdir(), 'storage-conformance-'));
const project = join(dir, 'project');
installProject(project, packedTarball(), ['uvu']);
copyFileSync(join(ROOT, 'test/package/fixture/storage-conformance.mjs'), join(project, 'storage-conformance.mjs'));

/** Every case of the suite, as the repository's own copy lists them (the rate-limit window case included). */
const CASES = storageConformanceCases({ create: () => createMemoryStorage(), endRateLimitWindows: () => {} }).map((c) => c.name);

function run(args: string[], env: Record<string, string>): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, args, { cwd: project, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...env } });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** node:test's TAP summary lines: `# pass N`, `# fail N`. */
const tapCount = (output: string, name: string) => Number(new RegExp(`^# ${name} (\\d+)$`, 'm').exec(output)?.[1]);

test.after(() => rmSync(dir, { recursive: true, force: true }));

test('the memory storage passes every case from the packed package under node:test and under uvu', () => {
  assert.ok(CASES.length >= 60, `${CASES.length} cases`);
  const nodeTest = run(['--test', '--test-reporter=tap', 'storage-conformance.mjs'], {});
  assert.is(nodeTest.status, 0, nodeTest.output);
  assert.equal([tapCount(nodeTest.output, 'pass'), tapCount(nodeTest.output, 'fail')], [CASES.length, 0]);
  assert.equal([...nodeTest.output.matchAll(/^ok \d+ - (.+)$/gm)].map((m) => m[1]!), CASES);
  const uvu = run(['storage-conformance.mjs'], { RUNNER: 'uvu' });
  assert.is(uvu.status, 0, uvu.output);
  assert.match(uvu.output, new RegExp(`Total:\\s+${CASES.length}\\n\\s+Passed:\\s+${CASES.length}\\n`));
});

test('a storage whose vote toggle forgets the vote fails, and the failure names the case', () => {
  const nodeTest = run(['--test', '--test-reporter=tap', 'storage-conformance.mjs'], { STORAGE: 'forgetful' });
  assert.is(nodeTest.status, 1, nodeTest.output);
  const failed = [...nodeTest.output.matchAll(/^not ok \d+ - (.+)$/gm)].map((m) => m[1]!);
  assert.ok(failed.includes('roadmap: a toggle votes, a second toggle by the same voter takes the vote back'), failed.join('\n'));
  // Only cases that vote fail; the others pass on the same storage.
  assert.equal(failed.filter((name) => !/^(roadmap|roadmap admin|roadmap unmerge|roadmap change): /.test(name)), [], 'failed cases that do not vote');
  assert.is(tapCount(nodeTest.output, 'fail'), failed.length);
  assert.is(tapCount(nodeTest.output, 'pass'), CASES.length - failed.length);
  assert.match(
    nodeTest.output,
    'storage conformance: "roadmap: a toggle votes, a second toggle by the same voter takes the vote back" failed: ',
  );
  const uvu = run(['storage-conformance.mjs'], { RUNNER: 'uvu', STORAGE: 'forgetful' });
  assert.is(uvu.status, 1, uvu.output);
  assert.match(uvu.output, /FAIL\s+memory storage\s+"roadmap: a toggle votes, a second toggle by the same voter takes the vote back"/);
});

test('the storage faces type-check in a consumer: a Storage from the package types, the suite given node:test and uvu', () => {
  copyFileSync(join(ROOT, 'test/package/fixture/storage-types.ts'), join(project, 'storage-types.ts'));
  const args = ['--noEmit', '--strict', '--exactOptionalPropertyTypes', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022'];
  const typeRoots = ['--typeRoots', join(ROOT, 'node_modules/@types'), '--types', 'node', '--lib', 'es2022,dom'];
  const tsc = run([join(ROOT, 'node_modules/typescript/bin/tsc'), ...args, ...typeRoots, 'storage-types.ts'], {});
  assert.is(tsc.status, 0, tsc.output);
});

test.run();
