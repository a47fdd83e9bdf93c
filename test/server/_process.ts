/**
 * Starts the standalone server (server/main.ts) as a child process on 127.0.0.1 and a free port.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../../server/main.ts', import.meta.url));
/** tsx by absolute URL, so the program can run from any working directory. */
const TSX = import.meta.resolve('tsx');

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  port: number;
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
}

/** Settings for the program; undefined removes a default. */
type Env = Record<string, string | undefined>;

/**
 * A clean environment: PATH, then loopback on a free port and memory storage (so no test writes ./data),
 * then `env`.
 */
function environment(env: Env): Record<string, string> {
  const merged: Env = { PATH: process.env['PATH'] ?? '', HOST: '127.0.0.1', PORT: '0', STORAGE: 'memory', ...env };
  return Object.fromEntries(Object.entries(merged).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

/** Runs the program to its end (for configuration errors); `stderr` holds the logged messages. */
export function runToExit(env: Env): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['--import', TSX, MAIN], {
    env: environment(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const messages = () =>
    stderr
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => (JSON.parse(line) as { message: string }).message)
      .join('\n');
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr: messages() })));
}

/** Starts the server and waits for its "listening" line. */
export function startServerProcess(env: Env = {}, cwd?: string): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', TSX, MAIN], {
    env: environment(env),
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(cwd ? { cwd } : {}),
  });
  let out = '';
  let err = '';
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (d) => (err += d));
    child.stdout!.on('data', (d) => {
      out += d;
      const line = out.split('\n').find((l) => l.includes('"message":"listening"'));
      if (!line) return;
      const url = (JSON.parse(line) as { url: string }).url;
      resolve({ child, url, port: Number(new URL(url).port), stdout: () => out, stderr: () => err, exited });
    });
    exited.then((code) => reject(new Error(`server exited with ${code}: ${err}`)));
  });
}
