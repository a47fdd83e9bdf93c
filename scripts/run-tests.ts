/**
 * Runs every test file in its own Node process (two at a time), shows each file's output, and ends
 * with one line "N passed, N failed". Exits non-zero when any file fails or no test ran.
 *
 * Usage: node --import tsx scripts/run-tests.ts [filter]
 */
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const filter = process.argv[2];

function findTests(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return findTests(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

interface Outcome {
  file: string;
  code: number;
  output: string;
  passed: number;
  skipped: number;
  total: number;
}

function run(file: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', file], {
      cwd: root,
      env: { ...process.env, FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => {
      const count = (label: string) => Number(new RegExp(`${label}:\\s+(\\d+)`).exec(output)?.[1] ?? 0);
      resolve({ file, code: code ?? 1, output, passed: count('Passed'), skipped: count('Skipped'), total: count('Total') });
    });
  });
}

const files = findTests(join(root, 'test'))
  .filter((file) => !filter || file.includes(filter))
  .sort();
const databaseUrl = process.env['DATABASE_URL'];
process.stdout.write(
  databaseUrl
    ? `Postgres tests use DATABASE_URL (${new URL(databaseUrl).host}), each in its own schema\n`
    : 'Postgres tests use PGlite served over the wire protocol on 127.0.0.1 (DATABASE_URL is unset)\n',
);
const queue = [...files];
const outcomes: Outcome[] = [];
const workers = Array.from({ length: Math.min(2, availableParallelism()) }, async () => {
  for (let file = queue.shift(); file; file = queue.shift()) {
    const outcome = await run(file);
    outcomes.push(outcome);
    const ok = outcome.code === 0 && outcome.total > 0 && outcome.passed + outcome.skipped === outcome.total;
    process.stdout.write(`\n== ${relative(root, file)}: ${ok ? 'ok' : 'FAILED'} (${outcome.passed}/${outcome.total})\n`);
    if (!ok || process.env['VERBOSE']) process.stdout.write(outcome.output);
  }
});
await Promise.all(workers);

const passed = outcomes.reduce((n, o) => n + o.passed, 0);
const total = outcomes.reduce((n, o) => n + o.total, 0);
const skipped = outcomes.reduce((n, o) => n + o.skipped, 0);
// A file that crashed or ran nothing counts as one failure more than its own failed tests.
const brokenFiles = outcomes.filter((o) => (o.code !== 0 || o.total === 0) && o.passed + o.skipped === o.total).length;
const failed = total - passed - skipped + brokenFiles;
process.stdout.write(`\n${files.length} test files\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
