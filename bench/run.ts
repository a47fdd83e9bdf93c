/**
 * `npm run bench`: the standalone server against the bare node:http ceiling, scenario by scenario,
 * alternating A B B A after a warm-up, then a memory soak. Writes a markdown table to bench/results/.
 *
 * Environment: BENCH_SECONDS (per round, default 3), BENCH_ROUNDS (default 5), BENCH_CONNECTIONS (50),
 * BENCH_STORAGES (comma list, default "memory"), BENCH_SOAK (requests, default 1000000; 0 skips it),
 * BENCH_ONLY (run only scenarios whose name contains it).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { requestBytes, runRaw } from './raw-client.ts';
import { clientAddress, type Scenario, SCENARIOS } from './scenarios.ts';
import { OPERATOR_ENV, publishReleases, publishUpdateFiles } from './releases.ts';
import { storageEnv } from './storage-env.ts';
import { footprintNote, measureFootprint } from './footprint.ts';
import { type BenchProcess, cpuSeconds, peakRss, pinSelf, RUNTIME_COMMANDS, startProcess } from './process.ts';
import { startWorkerdProcess } from './workerd.ts';
import { hasWrk, runWrk } from './wrk-client.ts';

const seconds = Number(process.env['BENCH_SECONDS'] ?? 3);
const rounds = Number(process.env['BENCH_ROUNDS'] ?? 5);
const connections = Number(process.env['BENCH_CONNECTIONS'] ?? 50);
const storages = (process.env['BENCH_STORAGES'] ?? 'memory').split(',');
const runtimes = (process.env['BENCH_RUNTIMES'] ?? 'node').split(',');
/** The standalone program of each runtime; on Node the built program, which is what ships. */
const ENTRIES: Record<string, string> = { node: 'dist/cli.js', deno: 'server/main-deno.ts', bun: 'server/main-bun.ts' };
const soakRequests = Number(process.env['BENCH_SOAK'] ?? 1_000_000);
const only = process.env['BENCH_ONLY'];
/**
 * `BENCH_ONLY==GET pricing` (a leading '=') runs the scenario of exactly that name, not every name containing
 * it; several choices are separated by `|` (`=GET pricing|update`), so rows meant to be read together run together.
 */
const picks = (name: string) => !only || only.split('|').some((choice) => (choice.startsWith('=') ? name === choice.slice(1) : name.includes(choice)));
/** raw (default): pre-serialized requests that saturate the server; autocannon: the common tool, slower here. */
const client = process.env['BENCH_CLIENT'] ?? 'raw';

/** Targets of issue 6, as ratios to the node:http ceiling. */
function targetOf(runtime: string, storage: string, scenario: string): number | undefined {
  if (runtime === 'deno' && scenario === 'GET pricing') return 0.8;
  if (runtime === 'bun' && scenario === 'GET pricing') return 1.0;
  // No target for the Worker (BENCH_RUNTIMES=workerd): on PostgreSQL it opens a connection per request,
  // which Hyperdrive pools on Cloudflare and nothing pools here, so its row measures Postgres' connection
  // setup more than the code (see docs/edge.md).
  if (runtime !== 'node') return undefined;
  if (storage === 'memory') {
    // 'distinct unknown paths (404)' has no target: it shows what the 404 body cache is worth (issue 18).
    if (['GET pricing', 'GET pricing, wrk', 'unknown path (404)', 'rate-limited client (429)'].includes(scenario)) return 0.85;
    if (scenario === 'POST feedback') return 0.5;
    if (scenario === 'GET pricing, access log on') return 0.6;
    // Issue 31: a bucket per client and a signature per answer must not cost the update check its speed.
    if (scenario === 'GET version, staged release, signed, wrk') return 0.8;
  }
  if (storage === 'postgres' && scenario === 'POST roadmap toggle') return 0.25;
  // Issue 11: the default storage (PGlite) and PostgreSQL.
  if (storage === 'pglite') {
    if (['GET pricing', 'GET version', 'unknown path (404)', 'rate-limited client (429)'].includes(scenario)) return 0.8;
    if (scenario === 'GET roadmap' || scenario === 'POST feedback') return 0.3;
    if (scenario === 'POST roadmap toggle') return 0.2;
  }
  if (storage === 'postgres' && (scenario === 'GET roadmap' || scenario === 'POST feedback')) return 0.3;
  return undefined;
}

interface Measure {
  rps: number;
  /** Requests served per CPU second of the server process: its cost, whatever the load generator manages. */
  perCpuSecond: number;
  p50: number;
  p99: number;
  statuses: Record<string, number>;
}

let nextClient = 0;

/** One measurement with autocannon, varying the client address per request with setupRequest. */
async function loadWithAutocannon(url: string, scenario: Scenario, duration: number) {
  const result = await autocannon({
    url,
    connections,
    duration,
    requests: [
      {
        method: scenario.method,
        path: scenario.path,
        ...(scenario.body ? { body: scenario.body, headers: { 'content-type': 'application/json' } } : {}),
        setupRequest: (request) => {
          const client = scenario.clients === 'many' ? clientAddress(nextClient++) : '192.0.2.1';
          request.headers = { ...request.headers, 'x-forwarded-for': client };
          return request;
        },
      },
    ],
  });
  const statuses: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statuses[code] = (stat as { count: number }).count;
  return { rps: result.requests.average, total: result.requests.total, p50: result.latency.p50, p99: result.latency.p99, statuses };
}

/** Each listening port's pre-serialized requests by scenario; a server's entry goes when it stops. */
const requestCache = new Map<number, Map<string, Buffer[]>>();
/** Ports of Workers under workerd (while they run). */
const workerdPorts = new Set<number>();

/** A port's requests of one scenario, built once while that port's server runs. */
function requestsFor(scenario: Scenario, port: number): Buffer[] {
  let byScenario = requestCache.get(port);
  if (!byScenario) requestCache.set(port, byScenario = new Map());
  let requests = byScenario.get(scenario.name);
  // The Worker's client is CF-Connecting-IP, which the edge sets: the other servers trust X-Forwarded-For.
  const clientHeader = workerdPorts.has(port) ? 'CF-Connecting-IP' : 'X-Forwarded-For';
  if (!requests) byScenario.set(scenario.name, requests = requestBytes(scenario, port, clientHeader));
  return requests;
}

async function load(url: string, scenario: Scenario, duration: number, pid: number): Promise<Measure> {
  const cpuBefore = cpuSeconds(pid);
  const port = Number(new URL(url).port);
  const clientHeader = workerdPorts.has(port) ? 'CF-Connecting-IP' : 'X-Forwarded-For';
  const result = scenario.loader === 'wrk'
    ? await runWrk(port, scenario, connections, duration, clientHeader)
    : client === 'raw'
    ? await runRaw(port, requestsFor(scenario, port), connections, duration)
    : await loadWithAutocannon(url, scenario, duration);
  const cpu = cpuSeconds(pid) - cpuBefore;
  return { ...result, perCpuSecond: cpu > 0 ? result.total / cpu : 0 };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function compare(server: BenchProcess, ceiling: BenchProcess, scenario: Scenario) {
  await load(server.url, scenario, 2, server.pid);
  await load(ceiling.url, scenario, 2, ceiling.pid);
  const ours: Measure[] = [];
  const bare: Measure[] = [];
  let peak = 0;
  // Each round pairs a run of the server with an adjacent run of the ceiling, in A B B A order so that a
  // drift in the machine's speed weighs on both sides alike; ratios are the medians of the pairs' ratios.
  for (let round = 0; round < rounds; round++) {
    const measureOurs = async () => {
      // The peak of each scenario, sampled while it runs (VmHWM would keep the peak of earlier ones).
      const sampler = setInterval(() => (peak = Math.max(peak, peakRss(server.pid))), 250);
      ours.push(await load(server.url, scenario, seconds, server.pid));
      clearInterval(sampler);
    };
    const measureBare = async () => void bare.push(await load(ceiling.url, scenario, seconds, ceiling.pid));
    if (round % 2 === 0) {
      await measureOurs();
      await measureBare();
    } else {
      await measureBare();
      await measureOurs();
    }
  }
  const statuses: Record<string, number> = {};
  for (const m of ours) for (const [code, n] of Object.entries(m.statuses)) statuses[code] = (statuses[code] ?? 0) + n;
  return {
    rps: median(ours.map((m) => m.rps)),
    ceilingRps: median(bare.map((m) => m.rps)),
    ratio: median(ours.map((m, i) => m.rps / bare[i]!.rps)),
    cpuRatio: median(ours.map((m, i) => m.perCpuSecond / bare[i]!.perCpuSecond)),
    p50: median(ours.map((m) => m.p50)),
    p99: median(ours.map((m) => m.p99)),
    peakMb: peak / 1024 / 1024,
    statuses,
  };
}

/**
 * Issue 10: a scenario with extra settings (the access log, metrics) against the same server without
 * them, paired round by round like the ceiling, so the machine's drift weighs on both alike. Metrics must
 * keep 0.95 of the plain server; the access log is judged against the ceiling (0.6) in its row.
 */
async function compareWithPlain(runtime: string, storage: string, scenario: Scenario, server: BenchProcess) {
  await withServer(runtime, storage, async (plain) => {
    const r = await compare(server, plain, scenario);
    const judged = Math.min(r.ratio, r.cpuRatio);
    const target = scenario.name.includes('metrics') ? 0.95 : undefined;
    const verdict = target === undefined ? '' : ` (target ${target}: ${judged >= target ? 'met' : 'MISSED'})`;
    notes.push(
      `${runtime}/${storage}: ${scenario.name}: ${r.ratio.toFixed(2)} of the req/s of the same server without it, CPU ratio ${
        r.cpuRatio.toFixed(2)
      }, paired round by round${verdict}.`,
    );
    process.stdout.write(`${notes[notes.length - 1]}\n`);
  });
}

/**
 * The environment that points the server at the shipped example config with a scenario's `config` fields
 * set over it (a temporary file, removed by the returned function), or nothing for a scenario without any.
 */
function scenarioConfig(fields: Record<string, unknown> | undefined): { env: Record<string, string>; remove: () => void } {
  if (!fields) return { env: {}, remove: () => {} };
  const example = join(root, 'example/config.json');
  const file = JSON.parse(readFileSync(example, 'utf8')) as Record<string, unknown>;
  const dir = mkdtempSync(join(tmpdir(), 'bench-config-'));
  const versionFile = resolve(dirname(example), String(file['versionFile']));
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ ...file, versionFile, ...fields }));
  return { env: { CONFIG_FILE: join(dir, 'config.json') }, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

async function soak(server: BenchProcess): Promise<string> {
  const scenario = SCENARIOS[0]!;
  const run = (amount: number) =>
    autocannon({
      url: server.url,
      connections,
      amount,
      requests: [
        {
          method: 'GET',
          path: scenario.path,
          setupRequest: (request) => ({ ...request, headers: { ...request.headers, 'x-forwarded-for': clientAddress(nextClient++) } }),
        },
      ],
    });
  await run(soakRequests / 5);
  const middle = peakRss(server.pid, 'VmRSS');
  await run(soakRequests - soakRequests / 5);
  const end = peakRss(server.pid, 'VmRSS');
  const change = (end - middle) / middle;
  return `Memory soak (${soakRequests.toLocaleString('en')} GET pricing from 100,000 addresses): RSS after ${(soakRequests / 5).toLocaleString('en')} ${
    (middle / 2 ** 20).toFixed(1)
  } MB, at the end ${(end / 2 ** 20).toFixed(1)} MB (${(change * 100).toFixed(1)}%; target within 10%: ${Math.abs(change) <= 0.1 ? 'met' : 'MISSED'}).`;
}

/** Runs `work` against a fresh server of this runtime and storage, then stops it and removes its data. */
async function withServer(runtime: string, storage: string, work: (server: BenchProcess) => Promise<void>, extra: Record<string, string> = {}) {
  const { env, cleanup } = storageEnv(storage);
  const server = runtime === 'workerd'
    ? await startWorkerdProcess(env)
    : await startProcess(runtime, RUNTIME_COMMANDS[runtime]!(ENTRIES[runtime]!), { ...env, TRUSTED_PROXIES: '127.0.0.1/32', ...extra });
  const port = Number(new URL(server.url).port);
  if (runtime === 'workerd') workerdPorts.add(port);
  try {
    await work(server);
  } finally {
    await server.stop();
    // A later server may get this port: it must not inherit these requests (or the Worker's client header).
    requestCache.delete(port);
    workerdPorts.delete(port);
    await cleanup();
  }
}

pinSelf();
const root = fileURLToPath(new URL('..', import.meta.url));
const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root }).toString().trim();
const rows: string[] = [];
/** Ratio to the ceiling by runtime/storage/scenario, for the comparisons between storages. */
const measured = new Map<string, number>();
const notes: string[] = [];
if (!hasWrk) notes.push('Skipped "GET pricing, wrk": wrk is not installed (Debian: apt-get install wrk).');
// Node runs the built program: build it from this checkout first (BENCH_NO_BUILD=1 keeps dist/ as it is).
if (runtimes.includes('node') && process.env['BENCH_NO_BUILD'] !== '1') {
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
}
/** The highest resident MB under any scenario, by storage (Node). */
const peaks = new Map<string, number>();
const ceiling = await startProcess('ceiling', RUNTIME_COMMANDS['node']!('bench/ceiling.ts'), {});
try {
  for (const runtime of runtimes) {
    for (const storage of runtime === 'node' || runtime === 'workerd' ? storages : ['memory']) {
      // A Worker has no operator listener to publish a scenario's releases through.
      const runs = (s: Scenario) => picks(s.name) && (s.loader !== 'wrk' || hasWrk) && (runtime !== 'workerd' || !s.releases);
      for (const scenario of SCENARIOS.filter(runs)) {
        // A fresh server per scenario: what one scenario stores (250k feedback entries in memory) must not
        // weigh on the next one's garbage collection.
        const config = scenarioConfig(runtime === 'workerd' ? undefined : scenario.config);
        await withServer(runtime, storage, async (server) => {
          if (scenario.releases) await publishReleases(server.operatorUrl, scenario.releases);
          if (scenario.updateFiles) await publishUpdateFiles(server.operatorUrl, server.url);
          const r = await compare(server, ceiling, scenario);
          const target = targetOf(runtime, storage, scenario.name);
          // Judged on the lower of the two ratios: throughput flatters the server when the load generator
          // is the bottleneck, and CPU cost is what remains comparable then.
          const judged = Math.min(r.ratio, r.cpuRatio);
          // A row whose answers are not what the scenario measures (a full memory storage's 503s, say)
          // says so instead of judging: those answers cost something else.
          const answers = Object.values(r.statuses).reduce((a, b) => a + b, 0);
          const unexpected = answers - (r.statuses[String(scenario.expect ?? 200)] ?? 0);
          const verdict = target === undefined
            ? ''
            : unexpected > answers / 100
            ? `not judged: ${((100 * unexpected) / answers).toFixed(0)}% of answers not ${scenario.expect ?? 200}`
            : `${target.toFixed(2)} ${judged >= target ? 'met' : 'MISSED'}`;
          measured.set(`${runtime}/${storage}/${scenario.name}`, r.ratio);
          if (runtime === 'node') peaks.set(storage, Math.max(peaks.get(storage) ?? 0, r.peakMb));
          const codes = Object.entries(r.statuses).map(([code, n]) => `${code}: ${n}`).join(', ');
          rows.push(
            `| ${scenario.name} | ${runtime} | ${storage} | ${Math.round(r.rps)} | ${Math.round(r.ceilingRps)} | ${r.ratio.toFixed(2)} | ${
              r.cpuRatio.toFixed(2)
            } | ${verdict} | ${r.p50} | ${r.p99} | ${r.peakMb.toFixed(0)} | ${codes} |`,
          );
          process.stdout.write(`${rows[rows.length - 1]}\n`);
          if (scenario.env) await compareWithPlain(runtime, storage, scenario, server);
        }, { ...scenario.env, ...config.env, ...(scenario.releases ? OPERATOR_ENV : {}) }).finally(config.remove);
      }
    }
  }
  if (soakRequests > 0) await withServer('node', storages[0]!, async (server) => void notes.push(await soak(server)));
  // The footprint runs with the whole benchmark, or alone with BENCH_ONLY=footprint.
  if (runtimes.includes('node') && (!only || only === 'footprint')) {
    for (const storage of storages) {
      const { env, cleanup } = storageEnv(storage);
      try {
        const start = () => startProcess('server', RUNTIME_COMMANDS['node']!(ENTRIES['node']!), { ...env, TRUSTED_PROXIES: '127.0.0.1/32' });
        notes.push(footprintNote(storage, await measureFootprint(start), peaks.get(storage)));
      } finally {
        await cleanup();
      }
    }
  }
} finally {
  await ceiling.stop();
}
// Each as its ratio to the ceiling measured beside it: the two scenarios run minutes apart, and the
// machine's speed drifts between them.
const sharedLimit = measured.get('node/postgres/GET pricing');
const memoryLimit = measured.get('node/memory/GET pricing');
if (sharedLimit !== undefined && memoryLimit !== undefined) {
  const ratio = sharedLimit / memoryLimit;
  notes.unshift(
    `GET pricing with the rate limit shared on Postgres: ${
      ratio.toFixed(2)
    } of the same with the memory limiter, each taken as its ratio to the ceiling (target 0.5: ${ratio >= 0.5 ? 'met' : 'MISSED'}).`,
  );
}
// Issue 31: what the update check adds to the API's simplest answer under the same load (wrk, 100,000
// clients), for the vendor's decision on the staged row's target (bench/results/2026-11-27-version-staged-siphash.md).
const staged = measured.get('node/memory/GET version, staged release, signed, wrk');
const pricingWrk = measured.get('node/memory/GET pricing, wrk');
if (staged !== undefined && pricingWrk !== undefined) {
  notes.unshift(
    `GET version, staged release, signed: ${(staged / pricingWrk).toFixed(2)} of GET pricing, wrk, each taken as its ratio to the ceiling (no target).`,
  );
}

const table = [
  `# Benchmark ${new Date().toISOString()} (commit ${commit})`,
  '',
  `Machine: ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}. Server pinned to core 0, load generator to core 1.`,
  `Load: ${
    client === 'raw' ? 'bench/raw-client.ts (pre-serialized requests)' : 'autocannon'
  }, ${connections} connections, ${rounds} rounds of ${seconds} s in A B B A order after a 2 s warm-up; ratios are medians of the rounds' ratios.`,
  'Clients: X-Forwarded-For from 100,000 addresses (TRUSTED_PROXIES=127.0.0.1/32), except the 429 scenario.',
  'ratio: req/s against the ceiling. CPU ratio: requests per CPU second of the server process against the',
  "ceiling's; it stays comparable when the load generator, not the server, is the bottleneck. Targets are",
  'judged on the lower of the two.',
  '',
  '| scenario | runtime | storage | req/s | ceiling req/s | ratio | CPU ratio | target | p50 ms | p99 ms | peak RSS MB | statuses |',
  '|---|---|---|---|---|---|---|---|---|---|---|---|',
  ...rows,
  '',
  ...notes,
  '',
].join('\n');
mkdirSync(new URL('results/', import.meta.url), { recursive: true });
const file = new URL(`results/${new Date().toISOString().slice(0, 10)}-${commit}.md`, import.meta.url);
writeFileSync(file, table);
process.stdout.write(`\n${table}\nwritten to ${fileURLToPath(file)}\n`);
