/**
 * `npm run bench:profile -- "<scenario>"`: where a scenario's time goes, per request, against the ceiling.
 *
 * Runs the Node server and the ceiling, each under `node --cpu-prof` on core 0 with the benchmark's load
 * (bench/raw-client.ts on core 1), then prints the functions whose self time per request differs most
 * between the two. Startup is in both profiles; the load runs long enough to make it small.
 *
 * Environment: PROFILE_SECONDS (measured load, default 6), PROFILE_ENTRY (the server program: dist/cli.js,
 * what ships, by default; run `npm run build` first), PROFILE_LOADER (raw, or wrk), STORAGE and DATABASE_URL as for the server.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadOf } from './load.ts';
import { freePort } from './process.ts';
import { type BenchRelease, SCENARIOS } from './scenarios.ts';
import { OPERATOR_ENV, operatorUrlOf, publishReleases, publishUpdateFiles } from './releases.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const seconds = Number(process.env['PROFILE_SECONDS'] ?? 6);
/** The load generator: bench/raw-client.ts, or wrk (PROFILE_LOADER=wrk) as the 'GET pricing, wrk' row sends it. */
const loader = process.env['PROFILE_LOADER'] ?? 'raw';
const name = process.argv[2] ?? 'GET pricing';
const scenario = SCENARIOS.find((s) => s.name === name);
if (!scenario) throw new Error(`no scenario "${name}"; one of: ${SCENARIOS.map((s) => s.name).join(', ')}`);

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a function lives: an npm package, a file of this project, a part of node, or V8 itself. */
function moduleOf(frame: ProfileNode['callFrame']): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(frame.url);
  if (pkg) return `npm ${pkg[1]}`;
  if (frame.url === '') return frame.functionName || '(native)';
  if (frame.url.startsWith('file:')) return fileURLToPath(frame.url).slice(root.length);
  return `node ${frame.url.replace(/^node:/, '').replace(/^internal\//, '').split('/').slice(0, 2).join('/')}`;
}

/** Self time per request by function and by module, in microseconds. */
interface SelfTimes {
  functions: Map<string, number>;
  modules: Map<string, number>;
}

/** Runs one program under --cpu-prof with the scenario's load; returns microseconds of self time per request. */
async function profile(entry: string, releases?: readonly BenchRelease[]): Promise<SelfTimes> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-profile-'));
  const port = await freePort();
  // A built .js entry (dist/cli.js) runs as it ships: no TypeScript loader, and the port from PORT only.
  const built = entry.endsWith('.js');
  const args = ['-c', '0', process.execPath, '--cpu-prof', `--cpu-prof-dir=${dir}`, ...(built ? [entry] : ['--import', 'tsx', entry, String(port)])];
  const child = spawn('taskset', args, {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      TRUSTED_PROXIES: '127.0.0.1/32',
      STORAGE: process.env['STORAGE'] ?? 'memory',
      ...(releases ? OPERATOR_ENV : {}),
    },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let output = '';
  await new Promise<void>((resolve) =>
    child.stdout!.on('data', (data: Buffer) => {
      output += String(data);
      if (/listening/.test(output)) resolve();
    })
  );
  // The scenario's releases, as `npm run bench` publishes them (the profile measured the baseline before).
  if (releases) await publishReleases(operatorUrlOf(output), releases);
  if (releases && scenario!.updateFiles) await publishUpdateFiles(operatorUrlOf(output), `http://127.0.0.1:${port}`);
  const run = loadOf(scenario!, port, loader === 'wrk' ? 'wrk' : 'raw');
  const warm = await run(2);
  const measured = await run(seconds);
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  // The main thread's profile is the largest (tsx's loader thread writes a small one).
  const file = readdirSync(dir).sort((a, b) => statSync(join(dir, b)).size - statSync(join(dir, a)).size)[0]!;
  const data = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Profile;
  rmSync(dir, { recursive: true, force: true });
  const byId = new Map(data.nodes.map((node) => [node.id, node.callFrame]));
  const perRequest = new Map<string, number>();
  const modules = new Map<string, number>();
  const requestCount = warm.total + measured.total;
  data.samples.forEach((id, i) => {
    const frame = byId.get(id)!;
    if (frame.functionName === '(idle)') return;
    const us = (data.timeDeltas[i] ?? 0) / requestCount;
    const key = `${frame.functionName || '(anonymous)'} ${frame.url.split('/').slice(-2).join('/')}:${frame.lineNumber}`;
    perRequest.set(key, (perRequest.get(key) ?? 0) + us);
    const where = moduleOf(frame);
    modules.set(where, (modules.get(where) ?? 0) + us);
  });
  process.stdout.write(`${entry}: ${Math.round(measured.rps)} req/s\n`);
  return { functions: perRequest, modules };
}

/** The rows whose per-request time differs most between the server and the ceiling. */
function printDifferences(label: string, ours: Map<string, number>, bare: Map<string, number>, top: number): void {
  const rows = [...new Set([...ours.keys(), ...bare.keys()])]
    .map((key) => ({ key, ours: ours.get(key) ?? 0, bare: bare.get(key) ?? 0 }))
    .sort((a, b) => Math.abs(b.ours - b.bare) - Math.abs(a.ours - a.bare))
    .slice(0, top);
  process.stdout.write(`\n| server us | ceiling us | difference | ${label} |\n|---:|---:|---:|---|\n`);
  for (const row of rows) {
    process.stdout.write(`| ${row.ours.toFixed(3)} | ${row.bare.toFixed(3)} | ${(row.ours - row.bare).toFixed(3)} | ${row.key} |\n`);
  }
}

// What ships (`npm run build` first); PROFILE_ENTRY=server/main.ts profiles the sources under tsx.
const server = await profile(process.env['PROFILE_ENTRY'] ?? 'dist/cli.js', scenario.releases);
const ceiling = await profile('bench/ceiling.ts');
const total = (map: Map<string, number>) => [...map.values()].reduce((a, b) => a + b, 0);
process.stdout.write(`\nCPU us per request (not idle): server ${total(server.functions).toFixed(2)}, ceiling ${total(ceiling.functions).toFixed(2)}\n`);
printDifferences('function', server.functions, ceiling.functions, 30);
printDifferences('module', server.modules, ceiling.modules, 20);
