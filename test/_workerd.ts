/**
 * Running a Worker (server/worker.ts by default) under workerd from npm: bundle it with esbuild, write a
 * workerd config beside it, and serve it on 127.0.0.1 on a port workerd picks and reports.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { ROOT, type Spawned } from './_spawn.ts';

/** The Worker's variables in the tests, as wrangler.toml would set them. */
export const WORKER_VARS = { PRODUCT_VERSION: '2.4.1', PUBLIC_BASE_URL: 'https://api.sheets.test' } as const;

/** Bundles a Worker entry as wrangler would: one ES module, everything inlined. */
export async function bundleWorker(entry: string, outfile: string): Promise<void> {
  await build({
    entryPoints: [resolve(ROOT, entry)],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    mainFields: ['module', 'main'],
    logLevel: 'error',
  });
}

function capnpConfig(compatibilityDate: string): string {
  const bindings = Object.entries(WORKER_VARS)
    .map(([name, value]) => `(name = ${JSON.stringify(name)}, text = ${JSON.stringify(value)})`)
    .join(', ');
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .worker) ],
  sockets = [ (name = "http", address = "127.0.0.1:0", http = (), service = "main") ],
);
const worker :Workerd.Worker = (
  modules = [ (name = "worker.js", esModule = embed "worker.js") ],
  compatibilityDate = "${compatibilityDate}",
  bindings = [ ${bindings} ],
);
`;
}

/**
 * Starts a Worker under workerd.
 *
 * @param entry The Worker's entry file, absolute or relative to the repository.
 * @returns The process and the base URL it serves.
 */
export async function startWorkerd(entry = 'server/worker.ts'): Promise<Pick<Spawned, 'child' | 'output' | 'stop'> & { baseUrl: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'workerd-'));
  await bundleWorker(entry, join(dir, 'worker.js'));
  writeFileSync(join(dir, 'config.capnp'), capnpConfig('2025-09-01'));
  const child = spawn(join(ROOT, 'node_modules/.bin/workerd'), ['serve', join(dir, 'config.capnp'), '--control-fd=3'], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const code = await exited;
    rmSync(dir, { recursive: true, force: true });
    return code;
  };
  const port = await new Promise<number>((resolve, reject) => {
    let control = '';
    const timer = setTimeout(() => reject(new Error(`workerd did not listen within 30 s:\n${output}`)), 30_000);
    child.stdio[3]?.on('data', (chunk: Buffer) => {
      control += chunk.toString('utf8');
      for (const line of control.split('\n')) {
        const event = line.trim() ? (JSON.parse(line) as { event?: string; port?: number }) : {};
        if (event.event === 'listen' && event.port) {
          clearTimeout(timer);
          resolve(event.port);
        }
      }
    });
    child.once('error', (error) => reject(new Error(`workerd could not be started: ${error.message}`)));
    void exited.then((code) => reject(new Error(`workerd exited with ${code}:\n${output}`)));
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  return { child, output: () => output, stop, baseUrl: `http://127.0.0.1:${port}` };
}
