/**
 * Benchmark processes: the API server or the ceiling, pinned to core 0 when taskset is there.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { operatorUrlOf } from './releases.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const hasTaskset = spawnSync('taskset', ['-c', '0', 'true']).status === 0;

/** Pins this process (the load generator) to core 1. */
export function pinSelf(): void {
  if (hasTaskset) spawnSync('taskset', ['-cp', '1', String(process.pid)]);
}

export interface BenchProcess {
  child: ChildProcess;
  pid: number;
  url: string;
  /** The operator listener's address, when the program was started with OPERATOR_PORT. */
  operatorUrl?: string;
  stop(): Promise<void>;
}

/** Bytes of a process's memory from /proc: the peak (VmHWM) or current (VmRSS) resident set. */
export function peakRss(pid: number, field: 'VmHWM' | 'VmRSS' = 'VmRSS'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1];
  return Number(kb ?? 0) * 1024;
}

/** CPU seconds a process has used so far (user + system), from /proc/<pid>/stat. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14 and 15 of stat (utime, stime) are the 12th and 13th after the command name, in clock ticks.
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** How each runtime starts a TypeScript entry file (runtimes come from node_modules, as in the tests). */
export const RUNTIME_COMMANDS: Record<string, (entry: string) => string[]> = {
  // A built .js entry (dist/cli.js) runs as it ships, without the TypeScript loader.
  node: (entry) => (entry.endsWith('.js') ? [process.execPath, entry] : [process.execPath, '--import', 'tsx', entry]),
  deno: (entry) => [`${root}node_modules/.bin/deno`, 'run', '--allow-net', '--allow-read', '--allow-write', '--allow-env', entry],
  bun: (entry) => [`${root}node_modules/.bin/bun`, entry],
};

/**
 * Starts a program on a free port of 127.0.0.1 (PORT, and as last argument) and waits until it listens.
 *
 * @param name For error messages.
 * @param command The command line, e.g. RUNTIME_COMMANDS.node('server/main.ts').
 * @param env Extra environment.
 */
export async function startProcess(name: string, commandLine: string[], env: Record<string, string>): Promise<BenchProcess> {
  // A port the system just handed out can still be taken by a load-generator socket before the program
  // binds it (ephemeral ports are shared): try another one then.
  for (let attempt = 1;; attempt++) {
    try {
      return await startOnPort(name, commandLine, env, await freePort());
    } catch (error) {
      if (attempt >= 3 || !/in use/i.test(String(error))) throw error;
    }
  }
}

/** A port of 127.0.0.1 that nothing listens on, from the system. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

function startOnPort(name: string, commandLine: string[], env: Record<string, string>, port: number): Promise<BenchProcess> {
  // The built program takes its port from PORT only; the TypeScript entries and the ceiling take it last.
  const command = commandLine.at(-1)?.endsWith('cli.js') ? commandLine : [...commandLine, String(port)];
  const child = spawn(hasTaskset ? 'taskset' : command[0]!, hasTaskset ? ['-c', '0', ...command] : command.slice(1), {
    cwd: root,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk;
      if (!/listening/.test(output)) return;
      child.stdout!.off('data', onData);
      child.stdout!.resume();
      child.stderr!.resume();
      const operatorUrl = operatorUrlOf(output);
      resolve({
        child,
        pid: child.pid!,
        url: `http://127.0.0.1:${port}`,
        ...(operatorUrl ? { operatorUrl } : {}),
        stop: () =>
          new Promise<void>((done) => {
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}: ${output}`)));
  });
}
