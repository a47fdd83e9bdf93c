import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { loadScaled } from '../_load.ts';

const root = new URL('../..', import.meta.url).pathname;
const runner = suite('the test runner (scripts/run-tests.ts) on fixture test files');

const FIXTURES: Record<string, string> = {
  'pass.test.ts': `import { suite } from 'uvu';
const s = suite('passing');
s('one', () => {});
s('two', () => {});
s.run();`,
  'skip-and-fail.test.ts': `import { suite } from 'uvu';
import * as assert from 'uvu/assert';
const s = suite('skip and fail');
s('fails', () => assert.is(1, 2));
s.skip('skipped', () => {});
s.run();`,
  'only.test.ts': `import { suite } from 'uvu';
const s = suite('focused');
s.only('the focused test', () => {});
s('a failing test hidden by .only', () => { throw new Error('never runs'); });
s.run();`,
  'setup-throws.test.ts': `import { suite } from 'uvu';
const s = suite('needs a database');
s.before(() => { throw new Error('database is down'); });
s('a', () => {});
s('b', () => {});
s.run();`,
  'crashes-after.test.ts': `import { test } from 'uvu';
test('passes', () => {});
test.run();
setTimeout(() => { throw new Error('a late crash'); }, 50);`,
  'empty.test.ts': `import 'uvu';`,
  'hangs.test.ts': `import { test } from 'uvu';
test('never settles', () => new Promise(() => setInterval(() => {}, 1000)));
test.run();`,
  // In core/, so in the unit tier: these run several to a process, under the unit tier's guard.
  'core/default-test.test.ts': `import { test } from 'uvu';
test('one', () => {});
test('two', () => {});
test.run();`,
  'core/suite.test.ts': `import { suite } from 'uvu';
const s = suite('a suite');
s('one', () => {});
s('two', () => {});
s('three', () => {});
s.run();`,
  'core/skip-and-fail.test.ts': `import { suite } from 'uvu';
import * as assert from 'uvu/assert';
const s = suite('skip and fail');
s('fails', () => assert.is(1, 2));
s.skip('skipped', () => {});
s.run();`,
  'core/spawns.test.ts': `import { test } from 'uvu';
import { execFileSync } from 'node:child_process';
test('starts a program', () => { execFileSync('true'); });
test.run();`,
  'spawns.test.ts': `import { test } from 'uvu';
import { execFileSync } from 'node:child_process';
test('starts a program', () => { execFileSync('true'); });
test.run();`,
};

/** Writes the named fixtures into a fresh folder that resolves uvu from this repository. */
function fixtureDir(names: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'runner-fixtures-'));
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
  for (const name of names) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), FIXTURES[name]!);
  }
  return dir;
}

/** The fixtures' file timeout: 3 s on an idle machine, more under load (each file starts node and tsx). */
const TIMEOUT_SECONDS = Math.ceil(loadScaled(3000) / 1000);

/** Runs the runner over a fixture folder, with the given arguments. */
function runRunner(
  dir: string,
  args: string[] = [],
  settings: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  // TIMEOUT_SECONDS already holds TEST_SLOW: the runner must not apply it twice.
  const env: NodeJS.ProcessEnv = { ...process.env, TEST_DIR: dir, TEST_TIMEOUT: String(TIMEOUT_SECONDS), TEST_SLOW: '1', ...settings };
  delete env['TEST_REPORT'];
  delete env['VERBOSE'];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/run-tests.ts', ...args], { cwd: root, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The "== file: status (counts) in N s" line of each file, by file name, without the time. */
function fileLines(stdout: string, dir: string): Record<string, string> {
  const lines: Record<string, string> = {};
  for (const match of stdout.matchAll(/^== (.+?): (.+) in \d+\.\d s$/gm)) lines[match[1]!.replace(`${dir}/`, '')] = match[2]!;
  return lines;
}

runner('a skip, .only, a throwing before hook, a crash and no test each fail the run; counts are direct', async () => {
  // The hang is the next test's, with a timeout of its own: here it would hold the run for TIMEOUT_SECONDS.
  const dir = fixtureDir(Object.keys(FIXTURES).filter((name) => !name.includes('/') && name !== 'spawns.test.ts' && name !== 'hangs.test.ts'));
  try {
    const { code, stdout } = await runRunner(dir);
    assert.is(code, 1);
    assert.equal(fileLines(stdout, dir), {
      'crashes-after.test.ts': 'FAILED (1 passed, 1 failed, 0 skipped)',
      'empty.test.ts': 'FAILED (0 passed, 1 failed, 0 skipped)',
      'only.test.ts': 'FAILED (1 passed, 1 failed, 1 skipped)',
      'pass.test.ts': 'ok (2 passed, 0 failed, 0 skipped)',
      'setup-throws.test.ts': 'FAILED (0 passed, 2 failed, 0 skipped)',
      'skip-and-fail.test.ts': 'FAILED (0 passed, 1 failed, 1 skipped)',
    });
    assert.match(stdout, `!! ${dir}/only.test.ts: suite "focused" marks 1 test(s) with .only, which skips the others: remove it`);
    assert.match(
      stdout,
      `!! ${dir}/setup-throws.test.ts: suite "needs a database": its before hook threw, so none of its 2 tests ran: Error: database is down`,
    );
    assert.match(stdout, 'SETUP FAILED  suite "needs a database": a before hook threw');
    assert.match(stdout, `!! ${dir}/skip-and-fail.test.ts: 1 test(s) failed`);
    assert.match(stdout, `!! ${dir}/crashes-after.test.ts: exited with code 1 although its tests passed`);
    assert.match(stdout, `!! ${dir}/empty.test.ts: ran no test`);
    assert.ok(stdout.endsWith('\n4 passed, 6 failed, 2 skipped\n'), stdout.slice(-200));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

runner('a file that never settles is stopped at TEST_TIMEOUT and fails the run', async () => {
  const dir = fixtureDir(['hangs.test.ts']);
  try {
    // One second, whatever the load: the file is meant to outlive any limit.
    const { code, stdout } = await runRunner(dir, [], { TEST_TIMEOUT: '1' });
    assert.is(code, 1);
    assert.equal(fileLines(stdout, dir), { 'hangs.test.ts': 'FAILED (0 passed, 1 failed, 0 skipped)' });
    assert.match(stdout, `!! ${dir}/hangs.test.ts: stopped after 1 s (TEST_TIMEOUT)`);
    assert.ok(stdout.endsWith('\n0 passed, 1 failed, 0 skipped\n'), stdout.slice(-200));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

runner('passing files exit 0 with the closing line CI reads', async () => {
  const dir = fixtureDir(['pass.test.ts']);
  try {
    const { code, stdout } = await runRunner(dir);
    assert.is(code, 0);
    assert.equal(fileLines(stdout, dir), { 'pass.test.ts': 'ok (2 passed, 0 failed, 0 skipped)' });
    assert.ok(stdout.endsWith('\n1 test files\n2 passed, 0 failed, 0 skipped\n'), stdout.slice(-200));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

runner('every filter given runs its files; a filter that matches none is refused', async () => {
  const dir = fixtureDir(['pass.test.ts', 'skip-and-fail.test.ts', 'empty.test.ts']);
  try {
    const both = await runRunner(dir, ['pass', 'skip-and']);
    assert.is(both.code, 1);
    assert.equal(fileLines(both.stdout, dir), {
      'pass.test.ts': 'ok (2 passed, 0 failed, 0 skipped)',
      'skip-and-fail.test.ts': 'FAILED (0 passed, 1 failed, 1 skipped)',
    });
    assert.ok(both.stdout.endsWith(`\n2 test files, failed: ${dir}/skip-and-fail.test.ts\n2 passed, 1 failed, 1 skipped\n`), both.stdout.slice(-200));
    const typo = await runRunner(dir, ['pass', 'pas-typo']);
    assert.is(typo.code, 64);
    assert.is(typo.stdout, '');
    assert.match(typo.stderr, 'no test file matches "pas-typo"');
    // A part of the folders above the test folder's parent (here the temporary folder) matches nothing:
    // a checkout named after its branch once ran the whole suite for a filter it shared with a test's name.
    const above = basename(dirname(dir));
    const outside = await runRunner(dir, [above]);
    assert.is(outside.code, 64);
    assert.match(outside.stderr, `no test file matches "${above}"`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

runner('an unknown flag or tier, or a TEST_SLOW that is no factor, is refused with exit 64 before anything runs', async () => {
  const dir = fixtureDir(['pass.test.ts']);
  try {
    const flag = await runRunner(dir, ['--verbose']);
    assert.is(flag.code, 64);
    assert.is(flag.stdout, '');
    assert.match(flag.stderr, 'unknown flag "--verbose"\nusage: npm test -- ');
    const tier = await runRunner(dir, ['--tier', 'fast']);
    assert.is(tier.code, 64);
    assert.match(tier.stderr, '--tier takes one of unit, storage, e2e, not "fast"');
    const slow = await runRunner(dir, [], { TEST_SLOW: 'very' });
    assert.is(slow.code, 64);
    assert.is(slow.stdout, '');
    assert.match(slow.stderr, 'TEST_SLOW must be a positive number (a factor, 1 by default), not "very"');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

runner('--list prints the files by tier and runs none of them', async () => {
  const dir = fixtureDir(['pass.test.ts', 'hangs.test.ts']);
  try {
    const { code, stdout } = await runRunner(dir, ['--list']);
    assert.is(code, 0);
    // Fixture files sit in no folder of scripts/test-tiers.ts, so they are e2e, the default.
    assert.is(stdout, `e2e (2 files)\n  ${dir}/hangs.test.ts\n  ${dir}/pass.test.ts\n2 test files\n`);
    const unit = await runRunner(dir, ['--tier', 'unit', '--list']);
    assert.is(unit.stdout, '0 test files\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

runner('unit files run several to a process and are still counted one by one', async () => {
  const dir = fixtureDir(['core/default-test.test.ts', 'core/suite.test.ts']);
  try {
    const { code, stdout } = await runRunner(dir);
    assert.is(code, 0);
    assert.equal(fileLines(stdout, dir), {
      'core/default-test.test.ts': 'ok (2 passed, 0 failed, 0 skipped)',
      'core/suite.test.ts': 'ok (3 passed, 0 failed, 0 skipped)',
    });
    assert.not.match(stdout, 'runs again alone');
    assert.match(stdout, /\n-- unit tier: 2 files \(5 passed, 0 failed, 0 skipped\) in \d+\.\d s\n2 test files\n5 passed, 0 failed, 0 skipped\n$/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

runner('a unit file may start no process; when a batch fails, each of its files runs again alone', async () => {
  const dir = fixtureDir(['core/default-test.test.ts', 'core/suite.test.ts', 'core/skip-and-fail.test.ts', 'core/spawns.test.ts', 'spawns.test.ts']);
  try {
    const { code, stdout } = await runRunner(dir);
    assert.is(code, 1);
    assert.equal(fileLines(stdout, dir), {
      'core/default-test.test.ts': 'ok (2 passed, 0 failed, 0 skipped)',
      'core/skip-and-fail.test.ts': 'FAILED (0 passed, 1 failed, 1 skipped)',
      'core/spawns.test.ts': 'FAILED (0 passed, 1 failed, 0 skipped)',
      'core/suite.test.ts': 'ok (3 passed, 0 failed, 0 skipped)',
      // The same file outside the unit tier may start a program.
      'spawns.test.ts': 'ok (1 passed, 0 failed, 0 skipped)',
    });
    assert.match(stdout, 'unit files in one process did not all pass: each runs again alone');
    assert.match(stdout, 'the unit tier allows no child process (execFileSync true)');
    assert.ok(stdout.endsWith('\n6 passed, 2 failed, 1 skipped\n'), stdout.slice(-200));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

runner.run();
