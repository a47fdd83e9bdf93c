/**
 * `npm run bench:ab -- "<scenario>" ...`: two builds of the server, paired round by round (A B B A) under
 * the benchmark's load (wrk for a scenario that `npm run bench` sends with wrk), for the before/after of
 * one change, each server warmed up for 2 s first. Prints medians of req/s, server CPU per request,
 * database commits per request (PostgreSQL) and how busy the whole machine was.
 *
 * Environment:
 * - AB_BEFORE: the checkout to compare with (A), e.g. `git worktree add /tmp/before HEAD~1` with its
 *   node_modules linked; this checkout is B. Without it, A and B are both this checkout (a noise check).
 * - AB_STORAGE: `postgres` (DATABASE_URL, a schema of its own, dropped afterwards), `pglite` (a
 *   temporary data directory per server) or `memory`; postgres by default.
 * - AB_ENTRY: the server program in each checkout; `server/main.ts` under tsx by default, `dist/cli.js`
 *   for what ships (run `npm run build` in both checkouts first).
 * - AB_ROUNDS (default 6) and AB_SECONDS (default 3).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import postgres from 'postgres';
import { cpuSeconds, freePort } from './process.ts';
import { loadOf } from './load.ts';
import { type BenchRelease, SCENARIOS } from './scenarios.ts';
import { OPERATOR_ENV, operatorUrlOf, publishReleases, publishUpdateFiles } from './releases.ts';

const here = fileURLToPath(new URL('..', import.meta.url));
const trees = { A: process.env['AB_BEFORE'] ?? here, B: here };
const storage = process.env['AB_STORAGE'] ?? 'postgres';
const rounds = Number(process.env['AB_ROUNDS'] ?? 6);
const seconds = Number(process.env['AB_SECONDS'] ?? 3);
const url = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = `ab_${process.pid}`;
const entry = process.env['AB_ENTRY'] ?? 'server/main.ts';
/** How node runs the entry: a built .js as it ships, the sources under tsx. */
const program = entry.endsWith('.js') ? [entry] : ['--import', 'tsx', entry];
const sql = storage === 'postgres' ? postgres(url, { onnotice: () => {} }) : null;

/** Transactions committed in the whole database so far (each batched statement is one). */
const commits = async (): Promise<number> =>
  sql ? ((await sql`select xact_commit::float8 as c from pg_stat_database where datname = current_database()`)[0]!['c'] as number) : 0;

/** Busy and total jiffies of all cores. */
function machine(): { busy: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.split(/ +/).slice(1, 9).map(Number);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = fields as [number, number, number, number, number, number, number, number];
  const busy = user + nice + system + irq + softirq + steal;
  return { busy, total: busy + idle + iowait };
}

async function start(tree: string, releases?: readonly BenchRelease[], updateFiles = false): Promise<{ port: number; stop: () => Promise<void>; pid: number }> {
  const port = await freePort();
  const dataDir = storage === 'pglite' ? mkdtempSync(join(tmpdir(), 'bench-ab-')) : null;
  const env = storage === 'memory'
    ? { STORAGE: 'memory' }
    : dataDir
    ? { STORAGE: 'pglite', DATA_DIR: dataDir }
    : { STORAGE: 'postgres', DATABASE_URL: url, DATABASE_SCHEMA: schema };
  const child = spawn('taskset', ['-c', '0', process.execPath, ...program], {
    cwd: tree,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', TRUSTED_PROXIES: '127.0.0.1/32', ...(releases ? OPERATOR_ENV : {}) },
    // Its start-up warnings (example content, the simulator) would only interleave with the results.
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (data: Buffer) => {
      output += String(data);
      if (/listening/.test(output)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the server in ${tree} exited with ${code} before listening`)));
  });
  // A scenario's releases, published as npm run bench does.
  if (releases) await publishReleases(operatorUrlOf(output), releases);
  if (updateFiles) await publishUpdateFiles(operatorUrlOf(output), `http://127.0.0.1:${port}`);
  return {
    port,
    pid: child.pid!,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

for (const name of process.argv.slice(2)) {
  const scenario = SCENARIOS.find((s) => s.name === name);
  if (!scenario) throw new Error(`no scenario "${name}"; one of: ${SCENARIOS.map((s) => s.name).join(', ')}`);
  const seen = { A: [] as number[][], B: [] as number[][] };
  for (let round = 0; round < rounds; round++) {
    for (const side of round % 2 === 0 ? (['A', 'B'] as const) : (['B', 'A'] as const)) {
      const server = await start(trees[side], scenario.releases, scenario.updateFiles === true);
      const load = loadOf(scenario, server.port);
      await load(2);
      const [cpu, committed, busy] = [cpuSeconds(server.pid), await commits(), machine()];
      const run = await load(seconds);
      const after = machine();
      seen[side].push([
        run.rps,
        ((cpuSeconds(server.pid) - cpu) * 1e6) / run.total,
        ((await commits()) - committed) / run.total,
        (2 * (after.busy - busy.busy)) / (after.total - busy.total),
      ]);
      await server.stop();
    }
  }
  // Each round's B against the A run beside it: this machine drifts by up to 2x within minutes, which
  // moves the medians of either side more than the change being judged.
  const paired = (i: number) => seen.B.map((row, r) => row[i]! / seen.A[r]![i]!);
  const spread = (values: number[]) => `${median(values).toFixed(3)} (${Math.min(...values).toFixed(3)}-${Math.max(...values).toFixed(3)})`;
  process.stdout.write(`${name} B/A paired by round: req/s ${spread(paired(0))}, CPU/request ${spread(paired(1))}\n`);
  for (const side of ['A', 'B'] as const) {
    const column = (i: number) => median(seen[side].map((row) => row[i]!));
    process.stdout.write(
      `${name} ${side}: ${Math.round(column(0))} req/s, server ${column(1).toFixed(1)} us CPU/request, ` +
        `${column(2).toFixed(3)} commits/request, machine ${column(3).toFixed(2)} cores busy ` +
        `(rounds: ${seen[side].map((row) => Math.round(row[0]!)).join(' ')})\n`,
    );
  }
}
if (sql) {
  await sql.unsafe(`drop schema if exists ${schema} cascade`);
  await sql.end();
}
