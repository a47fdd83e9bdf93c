/**
 * Starting a server program as a child process and waiting until it listens.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
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

function spawnCommand(command: string, env: Record<string, string>, cwd = ROOT) {
  return spawn('/bin/sh', ['-c', `exec ${command}`], {
    cwd,
    env: { ...process.env, ...env, PATH: `${BIN}:${process.env['PATH'] ?? ''}`, NO_COLOR: '1' },
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
export function runToExit(command: string, env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const child = spawnCommand(command, env);
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
): Promise<Spawned> {
  const timeoutMs = loadScaled(idleTimeoutMs);
  const child = spawnCommand(command, env, cwd);
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
