/**
 * Running the Worker under workerd from npm, as `npm run start:workers` and the tests do: bundle it with
 * esbuild the way wrangler does (one ES module, the `workerd` export condition, Node built-ins and
 * `cloudflare:sockets` left to the runtime), write a workerd config beside it with the Worker's
 * variables as text bindings, and serve it on 127.0.0.1 on a port workerd picks and reports.
 *
 * @module
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The compatibility date and flags of wrangler.toml, so that local runs match the deployment. */
function wranglerCompatibility(): { date: string; flags: string[] } {
  const toml = readFileSync(join(ROOT, 'wrangler.toml'), 'utf8');
  const date = /^compatibility_date\s*=\s*"([^"]+)"/m.exec(toml)?.[1];
  const flags = /^compatibility_flags\s*=\s*\[([^\]]*)\]/m.exec(toml)?.[1] ?? '';
  if (!date) throw new Error('wrangler.toml has no compatibility_date');
  return { date, flags: [...flags.matchAll(/"([^"]+)"/g)].map((m) => m[1]!) };
}

/** What to bundle: a Worker entry file, or server/worker-app.ts over a config file. */
export type WorkerSource = { entry: string } | { configFile: string };

/**
 * Bundles a Worker as wrangler would.
 *
 * @param source The entry file (absolute, or relative to the project), or the config file to build the site Worker from.
 * @param outfile Where the bundle goes.
 */
async function bundleWorker(source: WorkerSource, outfile: string): Promise<void> {
  const input = 'entry' in source ? { entryPoints: [resolve(ROOT, source.entry)] } : {
    stdin: {
      contents: [
        `import config from ${JSON.stringify(source.configFile)} with { type: 'json' };`,
        `import { createSiteWorker } from './server/worker-app.ts';`,
        'export default createSiteWorker(config);',
      ].join('\n'),
      resolveDir: ROOT,
      sourcefile: 'worker-entry.ts',
      loader: 'ts' as const,
    },
  };
  await build({
    ...input,
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    conditions: ['workerd', 'worker'],
    mainFields: ['module', 'main'],
    external: ['node:*', 'cloudflare:*'],
    logLevel: 'error',
  });
}

function capnpConfig(bindings: Record<string, string>): string {
  const { date, flags } = wranglerCompatibility();
  const text = Object.entries(bindings)
    .map(([name, value]) => `(name = ${JSON.stringify(name)}, text = ${JSON.stringify(value)})`)
    .join(', ');
  // Outbound sockets and fetches may reach private and local addresses: a local database, a stand-in.
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .worker),
    (name = "internet", network = (allow = ["public", "private", "local"])),
  ],
  sockets = [ (name = "http", address = "127.0.0.1:0", http = (), service = "main") ],
);
const worker :Workerd.Worker = (
  modules = [ (name = "worker.js", esModule = embed "worker.js") ],
  compatibilityDate = ${JSON.stringify(date)},
  compatibilityFlags = [ ${flags.map((f) => JSON.stringify(f)).join(', ')} ],
  globalOutbound = "internet",
  bindings = [ ${text} ],
);
`;
}

/** A Worker served by workerd. */
export interface RunningWorkerd {
  child: ChildProcess;
  /** http://127.0.0.1:<port>. */
  url: string;
  port: number;
  /** Everything workerd printed so far (the Worker's console output included). */
  output(): string;
  /** SIGTERM, waits for the exit, removes the bundle; resolves with the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Bundles and serves a Worker under workerd.
 *
 * @param source What to bundle.
 * @param bindings The Worker's variables and secrets, as text bindings.
 * @param onOutput Receives what workerd prints, as it prints it (the program passes it through).
 */
export async function startWorkerd(
  source: WorkerSource,
  bindings: Record<string, string>,
  onOutput?: (chunk: string, stream: 'stdout' | 'stderr') => void,
): Promise<RunningWorkerd> {
  const dir = mkdtempSync(join(tmpdir(), 'workerd-'));
  try {
    await bundleWorker(source, join(dir, 'worker.js'));
    writeFileSync(join(dir, 'config.capnp'), capnpConfig(bindings));
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const child = spawn(join(ROOT, 'node_modules/.bin/workerd'), ['serve', join(dir, 'config.capnp'), '--control-fd=3'], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
  });
  let output = '';
  for (const stream of ['stdout', 'stderr'] as const) {
    child[stream]?.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      output += text;
      onOutput?.(text, stream);
    });
  }
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
      // Each complete line once; a line cut between chunks waits for its end.
      const lines = (control + chunk.toString('utf8')).split('\n');
      control = lines.pop()!;
      for (const line of lines) {
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
  return { child, url: `http://127.0.0.1:${port}`, port, output: () => output, stop };
}
