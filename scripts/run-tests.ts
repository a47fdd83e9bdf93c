/**
 * Runs test files, tier by tier (scripts/test-tiers.ts: unit, then storage, then e2e), two processes at a
 * time, shows each file's output, and ends with one line "N passed, N failed, N skipped". Exits non-zero
 * when any file fails or no test ran. Storage and e2e files run each in its own Node process. Unit files,
 * which may start no process and open no socket (scripts/test-report/unit-guard.ts refuses it), run in
 * four processes of several files each (scripts/test-report/batch.ts; a file's time shown is then that of
 * its tests); when anything in such a process fails, each of its files runs again alone and is judged by
 * that run.
 *
 * Failures are counted directly, per suite, from a report each file writes as it exits (see
 * scripts/test-report/uvu.ts), never inferred from totals: a skipped test cannot cancel a failed one.
 * A file also fails when it uses `.only`, when a suite's `before` hook throws (the error is shown), when
 * it exits non-zero, runs no test, or outlives TEST_TIMEOUT seconds (600 by default: test/package/pack.test.ts
 * took 136 to 222 s on the loaded machine) times TEST_SLOW (a factor, 1 by default: test/_load.ts).
 *
 * Usage: node --import tsx scripts/run-tests.ts [--tier unit|storage|e2e] [--list] [filter ...]
 * A filter is part of a path from the test folder's parent (`test/http/...`), so that the name of the checkout
 * (a worktree named after its branch) matches nothing: the files matching any of them run. `--tier` keeps one tier's files; `--list`
 * prints the chosen files by tier and runs nothing. Any other flag is refused (exit 64).
 * TEST_DIR picks another folder of tests (`test` by default); VERBOSE=1 shows the output of passing files.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { slowFactor } from '../test/_load.ts';
import { sharedSpecMissing } from '../test/_spec.ts';
import { type FileOutcome, fileOutcome, readSuites } from './test-report/outcome.ts';
import { findTestFiles, type Tier, tierOf, TIERS } from './test-tiers.ts';

const USAGE = 'usage: npm test -- [--tier unit|storage|e2e] [--list] [part of a path ...]';

interface Choice {
  tier: Tier | null;
  list: boolean;
  filters: string[];
}

/** Reads the command line; refuses what it does not know, so that no argument is silently ignored. */
function parseArguments(args: string[]): Choice | string {
  const choice: Choice = { tier: null, list: false, filters: [] };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--list') choice.list = true;
    else if (arg === '--tier' || arg.startsWith('--tier=')) {
      const value = arg === '--tier' ? args[++i] : arg.slice('--tier='.length);
      if (!TIERS.includes(value as Tier)) return `--tier takes one of ${TIERS.join(', ')}, not ${JSON.stringify(value ?? '')}`;
      choice.tier = value as Tier;
    } else if (arg === '--') {
      choice.filters.push(...args.slice(i + 1));
      break;
    } else if (arg.startsWith('-')) return `unknown flag ${JSON.stringify(arg)}`;
    else choice.filters.push(arg);
  }
  return choice;
}

const root = new URL('..', import.meta.url).pathname;
const parsed = parseArguments(process.argv.slice(2));
if (typeof parsed === 'string') {
  process.stderr.write(`${parsed}\n${USAGE}\n`);
  process.exit(64);
}
const choice = parsed;
const testDir = resolve(root, process.env['TEST_DIR'] ?? 'test');
const timeoutBase = Number(process.env['TEST_TIMEOUT'] ?? 600);
const preload = join(root, 'scripts', 'test-report', 'preload.ts');
const batchEntry = join(root, 'scripts', 'test-report', 'batch.ts');

if (!(timeoutBase > 0)) {
  process.stderr.write(`TEST_TIMEOUT must be a positive number of seconds, not ${JSON.stringify(process.env['TEST_TIMEOUT'])}\n`);
  process.exit(64);
}
let slow: number;
try {
  slow = slowFactor();
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(64);
}
/** A file's (or a unit batch's) time limit: TEST_TIMEOUT seconds times TEST_SLOW. */
const timeoutSeconds = timeoutBase * slow;

/** A file's name as printed: relative to the repository when it is inside it. */
function shown(file: string): string {
  const path = relative(root, file);
  return path.startsWith('..') ? file : path;
}

/** A test file's tier: its path relative to the test folder, looked up in scripts/test-tiers.ts. */
function tierOfFile(file: string): Tier {
  return tierOf(relative(testDir, file).split(sep).join('/'));
}

/** How a test process ended. */
interface ProcessEnd {
  code: number;
  output: string;
  timedOut: number | null;
}

/**
 * Runs test files in one Node process and its own process group, so that a timeout also ends the servers
 * it started: one file directly, several through scripts/test-report/batch.ts.
 */
function runProcess(files: string[], tier: Tier, report: string): Promise<ProcessEnd> {
  const entry = files.length === 1 ? files : [batchEntry, ...files];
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--import', preload, ...entry], {
      cwd: root,
      env: { ...process.env, FORCE_COLOR: '0', TEST_REPORT: report, TEST_TIER: tier },
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
      done({ code: code ?? (signal ? 1 : 0), output, timedOut: timedOut ? timeoutSeconds : null });
    });
  });
}

/** A file's outcome, and how long it took in seconds. */
interface Timed {
  outcome: FileOutcome;
  seconds: number;
}

/** Runs one file alone. */
async function runFile(file: string, index: number): Promise<Timed> {
  const report = join(reports, `${index}.json`);
  const started = performance.now();
  const end = await runProcess([file], tierOfFile(file), report);
  return { outcome: fileOutcome({ file, report, ...end }), seconds: (performance.now() - started) / 1000 };
}

/**
 * Runs unit files in one process and counts each apart (its suites name their group). Returns null when
 * the batch broke or any file failed: its files then run again alone.
 */
async function runBatch(batch: { file: string; index: number }[]): Promise<Timed[] | null> {
  const report = join(reports, `${batch[0]!.index}-batch.json`);
  const end = await runProcess(
    batch.map(({ file }) => file),
    'unit',
    report,
  );
  const suites = readSuites(report);
  if (end.code !== 0 || end.timedOut !== null || suites === null) return null;
  const timed = batch.map(({ file }, group) => {
    const own = suites.filter((suite) => suite.group === group);
    // Its tests' time: the imports of a batch are shared.
    const seconds = own.reduce((ms, suite) => ms + suite.ms, 0) / 1000;
    return { outcome: fileOutcome({ file, report, ...end, output: '' }, own), seconds };
  });
  if (timed.some(({ outcome }) => outcome.problems.length > 0)) return null;
  if (process.env['VERBOSE']) process.stdout.write(`\n-- ${batch.length} unit files in one process:\n${end.output}`);
  return timed;
}

/** The part of a file's path a filter is matched against: from the test folder's parent on. */
const filterable = (file: string) => relative(dirname(testDir), file);
const matches = (file: string) => choice.filters.length === 0 || choice.filters.some((filter) => filterable(file).includes(filter));
/** The chosen files, tier by tier (unit first), sorted within a tier. */
const files = TIERS.filter((tier) => choice.tier === null || choice.tier === tier).flatMap((tier) =>
  findTestFiles(testDir).filter((file) => tierOfFile(file) === tier && matches(file))
);
if (choice.list) {
  for (const tier of TIERS) {
    const inTier = files.filter((file) => tierOfFile(file) === tier);
    if (inTier.length > 0) process.stdout.write(`${tier} (${inTier.length} files)\n${inTier.map((file) => `  ${shown(file)}\n`).join('')}`);
  }
  process.stdout.write(`${files.length} test files\n`);
  process.exit(0);
}
const unmatched = choice.filters.filter((filter) => !files.some((file) => filterable(file).includes(filter)));
if (unmatched.length > 0) {
  const where = choice.tier === null ? '' : ` of the ${choice.tier} tier`;
  process.stderr.write(`no test file${where} matches ${unmatched.map((filter) => JSON.stringify(filter)).join(', ')}\n${USAGE}\n`);
  process.exit(64);
}
const reports = mkdtempSync(join(tmpdir(), 'test-reports-'));
const databaseUrl = process.env['DATABASE_URL'];
if (files.some((file) => tierOfFile(file) !== 'unit')) {
  process.stdout.write(
    databaseUrl
      ? `Postgres tests use DATABASE_URL (${new URL(databaseUrl).host}), each in its own schema\n`
      : 'Postgres tests use PGlite served over the wire protocol on 127.0.0.1 (DATABASE_URL is unset)\n',
  );
}
if (files.some((file) => file.endsWith('spec-table.test.ts'))) {
  const missing = sharedSpecMissing();
  if (missing) process.stdout.write(`The check of spec/public-api.md against the shared spec is skipped: ${missing}\n`);
}
/**
 * The work: each unit file in one of BATCHES processes (files dealt out in turn, so that the slow ones
 * spread), every other file in its own. Unit files start no process and open no socket
 * (scripts/test-report/unit-guard.ts), so nothing of one outlives it to disturb another.
 */
const BATCHES = 4;
const indexed = files.map((file, index) => ({ file, index }));
const unitFiles = indexed.filter(({ file }) => tierOfFile(file) === 'unit');
const batchCount = Math.min(BATCHES, Math.ceil(unitFiles.length / 2));
const batches = Array.from({ length: batchCount }, (_, b) => unitFiles.filter((_file, i) => i % batchCount === b));
/**
 * The e2e files that install the packed package (test/package/_packed.ts): the runner packs it once, as
 * the first job of the e2e tier (scripts/test-report/pack.ts), and hands them the tarball in
 * TEST_PACKED_TARBALL; each waits for it, while the other files run beside the pack.
 */
const installsPackage = (file: string) => tierOfFile(file) === 'e2e' && /\b(packedTarball|measureClient)\(/.test(readFileSync(file, 'utf8'));
const packUsers = new Set(files.filter(installsPackage));
type Job = { file: string; index: number }[] | 'pack';
const queue: Job[] = [...batches, ...indexed.filter(({ file }) => tierOfFile(file) !== 'unit').map((job) => [job])];
/** The pack, once its job is taken; packDone once it ended (packed or not). */
let packed: Promise<void> | null = null;
let packDone = packUsers.size === 0;
if (packUsers.size > 0) {
  const firstE2e = queue.findIndex((job) => job !== 'pack' && tierOfFile(job[0]!.file) === 'e2e');
  queue.splice(firstE2e, 0, 'pack');
}
/** Packs the package for the run; on failure the files pack it themselves (and show why it fails). */
async function pack(): Promise<void> {
  const started = performance.now();
  const env = { ...process.env };
  delete env['TEST_PACKED_TARBALL'];
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'scripts', 'test-report', 'pack.ts'), reports], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const code = await new Promise<number | null>((done) => child.on('close', done));
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (code === 0) {
    process.env['TEST_PACKED_TARBALL'] = stdout.trim();
    process.stdout.write(`\n-- the package, packed once for ${packUsers.size} files, in ${seconds} s\n`);
  } else process.stdout.write(`\n-- packing the package failed (exit ${code}); each file packs it itself:\n${stdout}${stderr}\n`);
}
/**
 * The next job: the first one in the queue that may start (a file that installs the package waits for
 * the pack); when only those are left, it waits for the pack.
 */
async function nextJob(): Promise<Job | undefined> {
  const ready = queue.findIndex((job) => job === 'pack' || packDone || !job.some(({ file }) => packUsers.has(file)));
  if (ready >= 0) {
    const job = queue.splice(ready, 1)[0]!;
    if (job === 'pack') packed = pack().finally(() => (packDone = true));
    return job;
  }
  if (queue.length === 0) return undefined;
  // Only files that wait for the pack are left, and the pack job (queued before them) was taken.
  await packed;
  return nextJob();
}
const outcomes: FileOutcome[] = [];
/** When each tier's first file started and its last one ended (tiers overlap by at most a file per worker). */
const spans = new Map<Tier, { start: number; end: number }>();

function show({ outcome, seconds }: Timed): void {
  outcomes.push(outcome);
  const ok = outcome.problems.length === 0;
  const counts = `${outcome.passed} passed, ${outcome.failed} failed, ${outcome.skipped} skipped`;
  process.stdout.write(`\n== ${shown(outcome.file)}: ${ok ? 'ok' : 'FAILED'} (${counts}) in ${seconds.toFixed(1)} s\n`);
  if (!ok || process.env['VERBOSE']) process.stdout.write(outcome.output);
  for (const problem of outcome.problems) process.stdout.write(`!! ${shown(outcome.file)}: ${problem}\n`);
}

const workers = Array.from({ length: Math.min(2, availableParallelism()) }, async () => {
  for (let job = await nextJob(); job; job = await nextJob()) {
    const started = performance.now();
    if (job === 'pack') {
      await packed;
      const span = spans.get('e2e');
      spans.set('e2e', { start: Math.min(span?.start ?? started, started), end: Math.max(span?.end ?? started, performance.now()) });
      continue;
    }
    const together = job.length > 1 ? await runBatch(job) : null;
    if (together) together.forEach(show);
    else {
      if (job.length > 1) process.stdout.write(`\n-- ${job.length} unit files in one process did not all pass: each runs again alone\n`);
      for (const { file, index } of job) show(await runFile(file, index));
    }
    const ended = performance.now();
    const tier = tierOfFile(job[0]!.file);
    const span = spans.get(tier);
    spans.set(tier, { start: Math.min(span?.start ?? started, started), end: Math.max(span?.end ?? ended, ended) });
  }
});
await Promise.all(workers);
rmSync(reports, { recursive: true, force: true });

const sum = (pick: (o: FileOutcome) => number, of = outcomes) => of.reduce((n, o) => n + pick(o), 0);
process.stdout.write('\n');
for (const tier of TIERS) {
  const of = outcomes.filter((o) => tierOfFile(o.file) === tier);
  const span = spans.get(tier);
  if (of.length === 0 || !span) continue;
  const counts = `${sum((o) => o.passed, of)} passed, ${sum((o) => o.failed, of)} failed, ${sum((o) => o.skipped, of)} skipped`;
  process.stdout.write(`-- ${tier} tier: ${of.length} files (${counts}) in ${((span.end - span.start) / 1000).toFixed(1)} s\n`);
}
const passed = sum((o) => o.passed);
const failed = sum((o) => o.failed);
const skipped = sum((o) => o.skipped);
const failedFiles = outcomes.filter((o) => o.problems.length > 0).map((o) => shown(o.file));
process.stdout.write(`${files.length} test files${failedFiles.length ? `, failed: ${failedFiles.join(', ')}` : ''}\n`);
process.stdout.write(`${passed} passed, ${failed} failed, ${skipped} skipped\n`);
process.exit(failed > 0 || failedFiles.length > 0 || passed === 0 ? 1 : 0);
