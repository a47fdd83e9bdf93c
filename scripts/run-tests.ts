/**
 * Runs every test file in its own Node process (two at a time), shows each file's output, and ends
 * with one line "N passed, N failed, N skipped". Exits non-zero when any file fails or no test ran.
 *
 * Failures are counted directly, per suite, from a report each file writes as it exits (see
 * scripts/test-report/uvu.ts), never inferred from totals: a skipped test cannot cancel a failed one.
 * A file also fails when it uses `.only`, when a suite's `before` hook throws (the error is shown), when
 * it exits non-zero, runs no test, or outlives TEST_TIMEOUT seconds (600 by default: test/package/pack.test.ts
 * took 136 to 222 s on the loaded machine).
 *
 * Usage: node --import tsx scripts/run-tests.ts [filter]
 * TEST_DIR picks another folder of tests (`test` by default); VERBOSE=1 shows the output of passing files.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { sharedSpecMissing } from '../test/_spec.ts';
import { fileOutcome, type FileOutcome } from './test-report/outcome.ts';

const root = new URL('..', import.meta.url).pathname;
const filter = process.argv[2];
const testDir = resolve(root, process.env['TEST_DIR'] ?? 'test');
const timeoutSeconds = Number(process.env['TEST_TIMEOUT'] ?? 600);
const preload = join(root, 'scripts', 'test-report', 'preload.ts');
const reports = mkdtempSync(join(tmpdir(), 'test-reports-'));

if (!(timeoutSeconds > 0)) {
  process.stderr.write(`TEST_TIMEOUT must be a positive number of seconds, not ${JSON.stringify(process.env['TEST_TIMEOUT'])}\n`);
  process.exit(64);
}

/** A file's name as printed: relative to the repository when it is inside it. */
function shown(file: string): string {
  const path = relative(root, file);
  return path.startsWith('..') ? file : path;
}

function findTests(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : findTests(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Runs one file in its own process group, so that a timeout also ends the servers it started. */
function run(file: string, index: number): Promise<FileOutcome> {
  const report = join(reports, `${index}.json`);
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--import', preload, file], {
      cwd: root,
      env: { ...process.env, FORCE_COLOR: '0', TEST_REPORT: report },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, timeoutSeconds * 1000);
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      done(fileOutcome({ file, code: code ?? (signal ? 1 : 0), output, report, timedOut: timedOut ? timeoutSeconds : null }));
    });
  });
}

const files = findTests(testDir)
  .filter((file) => !filter || file.includes(filter))
  .sort();
const databaseUrl = process.env['DATABASE_URL'];
process.stdout.write(
  databaseUrl
    ? `Postgres tests use DATABASE_URL (${new URL(databaseUrl).host}), each in its own schema\n`
    : 'Postgres tests use PGlite served over the wire protocol on 127.0.0.1 (DATABASE_URL is unset)\n',
);
if (files.some((file) => file.endsWith('spec-table.test.ts'))) {
  const missing = sharedSpecMissing();
  if (missing) process.stdout.write(`The check of spec/public-api.md against the shared spec is skipped: ${missing}\n`);
}
const queue = files.map((file, index) => ({ file, index }));
const outcomes: FileOutcome[] = [];
const workers = Array.from({ length: Math.min(2, availableParallelism()) }, async () => {
  for (let next = queue.shift(); next; next = queue.shift()) {
    const started = performance.now();
    const outcome = await run(next.file, next.index);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    outcomes.push(outcome);
    const ok = outcome.problems.length === 0;
    const counts = `${outcome.passed} passed, ${outcome.failed} failed, ${outcome.skipped} skipped`;
    process.stdout.write(`\n== ${shown(next.file)}: ${ok ? 'ok' : 'FAILED'} (${counts}) in ${seconds} s\n`);
    if (!ok || process.env['VERBOSE']) process.stdout.write(outcome.output);
    for (const problem of outcome.problems) process.stdout.write(`!! ${shown(next.file)}: ${problem}\n`);
  }
});
await Promise.all(workers);
rmSync(reports, { recursive: true, force: true });

const sum = (pick: (o: FileOutcome) => number) => outcomes.reduce((n, o) => n + pick(o), 0);
const passed = sum((o) => o.passed);
const failed = sum((o) => o.failed);
const skipped = sum((o) => o.skipped);
const failedFiles = outcomes.filter((o) => o.problems.length > 0).map((o) => shown(o.file));
process.stdout.write(`\n${files.length} test files${failedFiles.length ? `, failed: ${failedFiles.join(', ')}` : ''}\n`);
process.stdout.write(`${passed} passed, ${failed} failed, ${skipped} skipped\n`);
process.exit(failed > 0 || failedFiles.length > 0 || passed === 0 ? 1 : 0);
