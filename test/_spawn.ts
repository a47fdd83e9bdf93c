/**
 * Starting a program as a child process and waiting until it listens: package.json scripts on every
 * runtime (spawnServer), and the server program itself (startServerProcess), whose 'listening' line
 * listeningLine reads. The one place tests start a server program.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadScaled } from './_load.ts';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'node_modules', '.bin');

/** A free TCP port on 127.0.0.1 (the OS picks one; it is released just before the server takes it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** A child process that is serving. */
export interface Spawned {
  child: ChildProcess;
  /** Everything the process printed so far, both streams (for failure messages). */
  output(): string;
  /** What it printed to stdout so far. */
  stdout(): string;
  /** What it printed to stderr so far. */
  stderr(): string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  /** Sends SIGTERM and waits for the exit; SIGKILL after `graceMs`. Resolves with the exit code. */
  stop(graceMs?: number): Promise<number | null>;
}

/** `clean`: the environment is `env` alone (the server program's tests), not this process's plus `env`. */
interface SpawnOptions {
  clean?: boolean;
}

function spawnCommand(command: string, env: Record<string, string>, cwd = ROOT, options: SpawnOptions = {}) {
  return spawn('/bin/sh', ['-c', `exec ${command}`], {
    cwd,
    env: options.clean ? env : { ...process.env, ...env, PATH: `${BIN}:${process.env['PATH'] ?? ''}`, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/**
 * Runs a shell command line as `spawnServer` does, to its end (a program that must refuse to start).
 *
 * @param command The command line.
 * @param env Extra environment variables.
 * @returns The exit code and what was printed to stderr.
 */
export function runToExit(command: string, env: Record<string, string>, options: SpawnOptions = {}): Promise<{ code: number | null; stderr: string }> {
  const child = spawnCommand(command, env, ROOT, options);
  let stderr = '';
  child.stdout.resume();
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stderr }));
  });
}

/**
 * Runs a shell command line (as npm would run a package script, with node_modules/.bin on PATH) and
 * waits until `ready` accepts something it printed.
 *
 * @param command The command line, e.g. the text of a package.json script.
 * @param env Extra environment variables.
 * @param ready Tells from the output so far whether the server listens (anything truthy is yes).
 * @param timeoutMs How long to wait for `ready` before failing, on an idle machine (scaled by the load).
 * @param cwd The working directory; the repository by default.
 */
export function spawnServer(
  command: string,
  env: Record<string, string>,
  ready: (output: string) => unknown,
  idleTimeoutMs = 30_000,
  cwd = ROOT,
  options: SpawnOptions = {},
): Promise<Spawned> {
  const timeoutMs = loadScaled(idleTimeoutMs);
  const child = spawnCommand(command, env, cwd, options);
  let output = '';
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  // 'close', not 'exit': by then everything the process printed has been read.
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  const spawned: Spawned = {
    child,
    output: () => output,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    async stop(graceMs = 10_000) {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const force = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const code = await exited;
      clearTimeout(force);
      return code;
    },
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void spawned.stop(0);
      reject(new Error(`"${command}" did not start within ${timeoutMs} ms; it printed:\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (ready(output)) {
        clearTimeout(timer);
        resolve(spawned);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`"${command}" could not be started: ${error.message}`));
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`"${command}" exited with ${code} before listening; it printed:\n${output}`));
    });
  });
}

/** The fields of a program's 'listening' line (its last startup line) once it is printed whole. */
export function listeningLine(output: string): (Record<string, unknown> & { url: string }) | undefined {
  const line = output.split('\n').slice(0, -1).find((l) => l.startsWith('{') && l.includes('"message":"listening"'));
  return line ? (JSON.parse(line) as Record<string, unknown> & { url: string }) : undefined;
}

/** The server program (server/main.ts) as an operator runs it, serving. */
export interface ServerProcess extends Spawned {
  /** Where it listens, from its 'listening' line. */
  url: string;
  port: number;
  /** Every JSON log line so far, stdout and stderr. */
  readonly lines: string[];
}

/** Settings for the program; undefined removes a default. */
type ProgramEnv = Record<string, string | undefined>;

const MAIN = join(ROOT, 'server', 'main.ts');
/** tsx by absolute URL, so the program can run from any working directory. */
const TSX = import.meta.resolve('tsx');
const PROGRAM = `"${process.execPath}" --import ${TSX} "${MAIN}"`;

/**
 * A clean environment (PATH and HOME only), loopback on a free port, memory storage unless the test
 * names a storage (STORAGE, DATABASE_URL or DATA_DIR: the program's own default then), then `env`.
 */
function programEnvironment(env: ProgramEnv): Record<string, string> {
  const storageNamed = ['STORAGE', 'DATABASE_URL', 'DATA_DIR'].some((name) => name in env);
  const merged: ProgramEnv = {
    PATH: process.env['PATH'] ?? '',
    HOME: process.env['HOME'] ?? '',
    HOST: '127.0.0.1',
    PORT: '0',
    ...(storageNamed ? {} : { STORAGE: 'memory' }),
    ...env,
  };
  return Object.fromEntries(Object.entries(merged).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

/**
 * Starts the server program and waits for its 'listening' line: the one way tests start it.
 *
 * @param env Settings (see programEnvironment).
 * @param cwd The working directory; the repository by default.
 */
export async function startServerProcess(env: ProgramEnv = {}, cwd = ROOT): Promise<ServerProcess> {
  const spawned = await spawnServer(PROGRAM, programEnvironment(env), listeningLine, 30_000, cwd, { clean: true });
  const { url } = listeningLine(spawned.stdout())!;
  return Object.defineProperties(spawned as ServerProcess, {
    url: { value: url },
    port: { value: Number(new URL(url).port) },
    lines: { get: () => spawned.output().split('\n').filter((line) => line.startsWith('{')) },
  });
}

/** Runs the program to its end (a setting it refuses); `stderr` holds the logged messages, one per line. */
export async function runProgramToExit(env: ProgramEnv): Promise<{ code: number | null; stderr: string }> {
  const { code, stderr } = await runToExit(PROGRAM, programEnvironment(env), { clean: true });
  const messages = stderr
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => (JSON.parse(line) as { message: string }).message);
  return { code, stderr: messages.join('\n') };
}

/**
 * `converter-site-api <command> ...` from the repository, as the docs show it, with PATH and `env` only: the
 * program as a process. A test of what a command prints and exits with runs it in process instead
 * (test/_cli.ts's runCommand, the same answer).
 */
export function runCli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'server/cli/main.ts'), ...args],
      { cwd: ROOT, env: { PATH: process.env['PATH'] ?? '', ...env } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

/** Whether something accepts connections on 127.0.0.1:port (a server that should have stopped, say). */
export function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
