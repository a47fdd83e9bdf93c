/**
 * `npm run bench:instructions -- <scenario> [tree ...]`: instructions a request costs in process, counted
 * by valgrind's callgrind, for each built tree (this checkout by default; another checkout's root, after
 * `npm run build` there). These do not move with the machine or with what else runs, but they do from
 * build to build (garbage collection and the per-client sets' growth fall differently in each build's
 * window: docs/performance.md), so only a difference of several times says something.
 *
 * Each tree's built library (dist/index.js, dist/memory.js, dist/simulator.js) answers `app.handle` on
 * memory storage with a clock that stands still, so no background read, flush or window change falls in
 * the count; every request comes from another of 100,000 clients. A request costs the difference of two
 * runs (INSTR_MANY and INSTR_FEW requests, 60,000 and 20,000 by default) divided by the requests between
 * them, so start-up, JIT warm-up and the set-up cancel out.
 *
 * Scenarios: `version-staged` (two releases, one at 10 %, answers signed), `version` (no stored release:
 * the version source's), `pricing`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { BENCH_OPERATOR_TOKEN, releaseBody } from './releases.ts';
import { STAGED_RELEASES } from './scenarios.ts';

const here = fileURLToPath(new URL('..', import.meta.url));
const SCENARIOS = ['version-staged', 'version', 'pricing'] as const;
type Scenario = (typeof SCENARIOS)[number];

/** The n-th of 100,000 client addresses. */
const address = (n: number) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;

/** Inside valgrind: builds the app from `tree`'s dist and answers `count` requests. */
async function serve(tree: string, scenario: Scenario, count: number): Promise<void> {
  const load = (name: string) => import(pathToFileURL(join(tree, 'dist', `${name}.js`)).href);
  const [{ createApp }, { createMemoryStorage }, { createSimulatorGateway }] = await Promise.all([load('index'), load('memory'), load('simulator')]);
  const raw = JSON.parse(readFileSync(join(tree, 'example', 'config.json'), 'utf8'));
  const content = { offer: raw.offer, download: raw.download, roadmap: raw.roadmap };
  const at = Date.UTC(2026, 10, 28, 12, 0, 30);
  const clock = { now: () => at };
  const quiet = { info() {}, warn() {}, error() {} };
  const storage = createMemoryStorage({ clock });
  const gateway = createSimulatorGateway({ storage, publicBaseUrl: 'http://localhost:8080', clock });
  const app = await createApp({
    content,
    version: { current: () => '2.4.1' },
    storage,
    gateway,
    clock,
    logger: quiet,
    operatorToken: BENCH_OPERATOR_TOKEN,
  });
  if (scenario === 'version-staged') {
    // The releases of the wrk rows, published as bench/releases.ts publishes them, in process.
    for (const release of STAGED_RELEASES) {
      const answer = await app.operator.handle({
        method: 'POST',
        path: '/releases',
        clientIp: '127.0.0.1',
        headers: { authorization: `Bearer ${BENCH_OPERATOR_TOKEN}`, 'content-type': 'application/json' },
        body: releaseBody(release),
      });
      if (answer.status !== 201) throw new Error(`publishing ${release.version} answered ${answer.status}`);
    }
  }
  const path = scenario === 'pricing' ? '/api/v1/pricing' : '/api/v1/version';
  for (let i = 0; i < count; i++) {
    const answer = await app.handle({ method: 'GET', path, clientIp: address(i % 100_000), headers: {} });
    if (answer.status !== 200) throw new Error(`request ${i} answered ${answer.status}`);
    if (i === 0 && scenario !== 'pricing' && answer.headers['signature'] === undefined) throw new Error('the update answer is not signed');
  }
}

/** Instructions of one run of `count` requests under callgrind. */
function countInstructions(tree: string, scenario: Scenario, count: number): number {
  const dir = mkdtempSync(join(tmpdir(), 'instructions-'));
  const out = join(dir, 'callgrind.out');
  try {
    const run = spawnSync(
      'valgrind',
      ['--tool=callgrind', `--callgrind-out-file=${out}`, process.execPath, '--import', 'tsx', fileURLToPath(import.meta.url)],
      { cwd: here, env: { ...process.env, INSTR_SERVE: JSON.stringify({ tree, scenario, count }) }, encoding: 'utf8' },
    );
    if (run.status !== 0) throw new Error(`callgrind run failed (${run.status}): ${run.stderr.slice(-2000)}`);
    const totals = /^(?:summary|totals): (\d+)/m.exec(readFileSync(out, 'utf8'));
    if (!totals) throw new Error('callgrind wrote no total');
    return Number(totals[1]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const serving = process.env['INSTR_SERVE'];
if (serving !== undefined) {
  const { tree, scenario, count } = JSON.parse(serving) as { tree: string; scenario: Scenario; count: number };
  await serve(tree, scenario, count);
} else {
  const [scenario, ...trees] = process.argv.slice(2) as [Scenario, ...string[]];
  if (!SCENARIOS.includes(scenario)) throw new Error(`the scenario is one of ${SCENARIOS.join(', ')}`);
  execFileSync('valgrind', ['--version']);
  const many = Number(process.env['INSTR_MANY'] ?? 60_000);
  const few = Number(process.env['INSTR_FEW'] ?? 20_000);
  for (const tree of (trees.length > 0 ? trees : [here]).map((t) => resolve(t))) {
    const perRequest = (countInstructions(tree, scenario, many) - countInstructions(tree, scenario, few)) / (many - few);
    process.stdout.write(`${scenario} ${tree}: ${(perRequest / 1000).toFixed(1)}k instructions a request\n`);
  }
}
