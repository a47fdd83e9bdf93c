/**
 * The `converter-site-api` program's commands as an operator runs them from a checkout (the npm scripts
 * over server/cli/main.ts): --help everywhere, one exit code per condition in every command (64 usage,
 * 78 configuration or a held DATA_DIR), and exports whose stdout or --out file is exactly the data.
 * The built bin is run from the packed tarball in test/package/pack.test.ts.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lockDataDir } from '../../server/data-dir-lock.ts';
import { openStorage } from '../../server/open-storage.ts';
import { freshPgliteDir } from '../_databases.ts';
import { memoryLogger } from '../_setup.ts';
import { ROOT } from '../_spawn.ts';

const COMMANDS = ['serve', 'migrate', 'export', 'license'] as const;
/** A valid command line of each command, so that only the condition under test is wrong. */
const VALID: Record<(typeof COMMANDS)[number], string[]> = {
  serve: ['serve'],
  migrate: ['migrate'],
  export: ['export', 'feedback'],
  license: ['license', 'public-key'],
};

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command line to its end in a clean environment (PATH and HOME kept) plus `env`. */
function run(command: string, args: string[], env: Record<string, string> = {}, cwd = ROOT): Promise<Run> {
  const child = spawn(command, args, {
    cwd,
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The program from source, as the npm scripts run it. */
const program = (args: string[], env: Record<string, string> = {}, cwd = ROOT) =>
  run(process.execPath, ['--import', 'tsx', join(ROOT, 'server/cli/main.ts'), ...args], env, cwd);

const dir = mkdtempSync(join(tmpdir(), 'cli-test-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));

test('--help lists the commands; each command has its own --help; both on stdout with exit 0', async () => {
  const [top, ...each] = await Promise.all([program(['--help']), ...COMMANDS.map((name) => program([name, '--help']))]);
  assert.is(top.code, 0, top.stderr);
  assert.is(top.stderr, '');
  assert.match(top.stdout, /^usage: converter-site-api \[command\] \[options\]\n/);
  for (const name of COMMANDS) assert.match(top.stdout, new RegExp(`^  ${name} +\\S`, 'm'), `--help lists ${name}`);
  for (const [i, name] of COMMANDS.entries()) {
    const help = each[i]!;
    assert.is(help.code, 0, help.stderr);
    assert.is(help.stderr, '');
    assert.match(help.stdout, name === 'serve' ? /^usage: converter-site-api \[serve\]\n/ : new RegExp(`^usage: converter-site-api ${name}\\b`));
    assert.match(help.stdout, /64 usage error/);
  }
});

test('an unknown flag or command is a usage error in every command: exit 64, the mistake on stderr, nothing on stdout', async () => {
  const cases: [string[], string][] = [
    ...COMMANDS.map((name): [string[], string] => [[...VALID[name], '--frobnicate'], `converter-site-api ${name}: Unknown option '--frobnicate'`]),
    [['frobnicate'], 'converter-site-api: unknown command "frobnicate"'],
  ];
  const runs = await Promise.all(cases.map(([args]) => program(args, { STORAGE: 'memory' })));
  for (const [i, result] of runs.entries()) {
    const [args, message] = cases[i]!;
    assert.equal({ code: result.code, stdout: result.stdout }, { code: 64, stdout: '' }, `${args.join(' ')}: ${result.stderr}`);
    assert.match(result.stderr, message);
  }
});

test('a refused setting stops every command with exit 78 naming it', async () => {
  const runs = await Promise.all(COMMANDS.map((name) => program(VALID[name], { STORAGE: 'floppy', PORT: '0', HOST: '127.0.0.1' })));
  for (const [i, result] of runs.entries()) {
    assert.is(result.code, 78, `${COMMANDS[i]}: ${result.stderr}`);
    assert.match(result.stderr, /configuration error: STORAGE=\\?"floppy\\?" is not one of memory, pglite, postgres/);
  }
});

test('a DATA_DIR held by another process stops every operator command with exit 78 naming the holder', async () => {
  // serve: test/server/data-dir-lock.test.ts.
  const commands = COMMANDS.filter((name) => name !== 'serve');
  const dataDir = await freshPgliteDir(join(dir, 'held'));
  const release = lockDataDir(dataDir);
  try {
    const runs = await Promise.all(commands.map((name) => program(VALID[name], { DATA_DIR: dataDir })));
    for (const [i, result] of runs.entries()) {
      assert.is(result.code, 78, `${commands[i]}: ${result.stderr}`);
      assert.match(result.stderr, `DATA_DIR ${dataDir} is in use by process ${process.pid}`);
    }
  } finally {
    release();
  }
});

/** A PGlite data directory holding two feedback entries, one with a formula and a line break. */
async function dataDirWithFeedback(): Promise<string> {
  const dataDir = await freshPgliteDir(join(dir, 'feedback'));
  const storage = await openStorage({ kind: 'pglite', dataDir }, { logger: memoryLogger(), background: false });
  await storage.intake.addFeedback({
    type: 'review',
    description: 'Works, "mostly"\nthanks',
    email: 'a@example.com',
    appVersion: '2.4.1',
    rating: 5,
    receivedAt: Date.UTC(2026, 10, 1),
  });
  await storage.intake.addFeedback({ type: 'general', description: '=1+1', email: null, appVersion: null, rating: null, receivedAt: Date.UTC(2026, 10, 2) });
  await storage.close();
  return dataDir;
}

const CSV = 'id,receivedAt,type,rating,appVersion,email,description,handledAt\r\n' +
  '1,2026-11-01T00:00:00.000Z,review,5,2.4.1,a@example.com,"Works, ""mostly""\nthanks",\r\n' +
  "2,2026-11-02T00:00:00.000Z,general,,,,'=1+1,\r\n";

test('export writes exactly the data: to stdout under `npm run --silent`, and to --out under plain `npm run`', async () => {
  const dataDir = await dataDirWithFeedback();
  const env = { DATA_DIR: dataDir };
  const piped = await run('npm', ['run', '--silent', 'export', '--', 'feedback', '--format', 'csv'], env);
  assert.is(piped.code, 0, piped.stderr);
  assert.is(piped.stdout, CSV);
  const out = join(dir, 'feedback.csv');
  const toFile = await run('npm', ['run', 'export', '--', 'feedback', '--format', 'csv', '--out', out], env);
  assert.is(toFile.code, 0, toFile.stderr);
  assert.is(readFileSync(out, 'utf8'), CSV);
  assert.not.match(toFile.stdout, 'receivedAt', 'the data went to the file only');
  const json = await program(['export', 'downloads', '--out', join(dir, 'downloads.json')], { STORAGE: 'memory' });
  assert.equal({ code: json.code, stdout: json.stdout }, { code: 0, stdout: '' }, json.stderr);
  assert.is(readFileSync(join(dir, 'downloads.json'), 'utf8'), '[]\n');
  assert.equal(readdirSync(dir).filter((name) => name.endsWith('.partial')), [], 'no temporary file is left');
});

test('an export that fails leaves no file behind and exits 1', async () => {
  const out = join(dir, 'missing-dir', 'feedback.csv');
  const result = await program(['export', 'feedback', '--out', out], { STORAGE: 'memory' });
  assert.is(result.code, 1);
  assert.is(result.stdout, '');
  assert.match(result.stderr, /converter-site-api export: ENOENT/);
});

test('migrate on an empty PGlite database logs what it applied on stdout and exits 0', async () => {
  const result = await program(['migrate'], { DATA_DIR: await freshPgliteDir(join(dir, 'fresh')) });
  assert.is(result.code, 0, result.stderr);
  const line = JSON.parse(result.stdout) as { message: string; storage: string; version: number; latest: number };
  assert.equal({ message: line.message, storage: line.storage, current: line.version === line.latest }, {
    message: 'migrated',
    storage: 'pglite',
    current: true,
  });
});

test.run();
