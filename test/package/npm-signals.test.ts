/**
 * The commands the README gives stop cleanly on SIGTERM: `npx converter-site-api` in a project with the
 * packed package installed, and `npm start` in the checkout. npm exits on the signal without passing it
 * on, so the server must notice and stop itself: its 'stopped' line is printed, it exits 0, and its port
 * no longer answers. Without that it served on as an orphan.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadScaled } from '../_load.ts';
import { portAnswers, ROOT } from '../_spawn.ts';
import { installProject, packedTarball } from './_packed.ts';

interface Run {
  /** Resolves once npm and every process holding its output (the server) have exited. */
  closed: Promise<void>;
  output: () => string;
  kill(signal: NodeJS.Signals): void;
}

/** Runs `npm` with arguments as a user would type them, and waits for the server's 'listening' line. */
function runNpm(args: string[], cwd: string): Promise<Run & { port: number }> {
  const env = { ...process.env, STORAGE: 'memory', PORT: '0', HOST: '127.0.0.1', NO_COLOR: '1' };
  const child = spawn(args[0]!, args.slice(1), { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')} did not listen:\n${output}`)), loadScaled(60_000));
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const line = output.split('\n').find((text) => text.includes('"message":"listening"'));
      if (!line) return;
      clearTimeout(timer);
      child.stdout.off('data', onData);
      child.stdout.on('data', (more: Buffer) => (output += more.toString('utf8')));
      resolve({ closed, output: () => output, kill: (signal) => child.kill(signal), port: Number(new URL(JSON.parse(line).url).port) });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  });
}

/** SIGTERM to npm; then the server stops on its own, says so, and its port is closed. */
async function assertStopsOnSigterm(run: Run & { port: number }): Promise<void> {
  assert.ok(await portAnswers(run.port), 'the server answers before the signal');
  run.kill('SIGTERM');
  await run.closed;
  const lines = run.output().split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as { message: string; signal?: string });
  assert.ok(lines.some((line) => line.message === 'stopping: finishing requests in flight' && line.signal === 'npm exited'), run.output());
  assert.is(lines.at(-1)?.message, 'stopped');
  assert.not.ok(await portAnswers(run.port), 'the port is closed');
}

test("npx converter-site-api (the README's command for the release) stops when npx gets SIGTERM", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'npx-signal-'));
  try {
    const project = join(dir, 'site');
    installProject(project, packedTarball());
    await assertStopsOnSigterm(await runNpm(['npx', 'converter-site-api'], project));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("npm start (the README's command in a checkout) stops when npm gets SIGTERM", async () => {
  await assertStopsOnSigterm(await runNpm(['npm', 'start'], ROOT));
});

test.run();
