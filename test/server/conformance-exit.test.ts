/**
 * `converter-site-api conformance --deadline` ends the process at its deadline, with the report printed and
 * exit 1, over a real loopback socket against a target that holds every connection open and never answers,
 * also when something else in the process holds a handle open (issue 53: the report came at the deadline
 * and the process ran on, so a CI job hung to its runner's limit).
 */
import { execFile } from 'node:child_process';
import { createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT } from '../_spawn.ts';

/** A target that accepts every connection, reads what comes and never answers nor closes. */
async function holdingTarget() {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('data', () => undefined).on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    connections: () => sockets.size,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Runs the CLI with extra `--import`s; kills it after `limitMs` and says so. */
function conformance(args: string[], imports: string[], env: Record<string, string>, limitMs: number) {
  const started = Date.now();
  return new Promise<{ code: number | null; stdout: string; stderr: string; ms: number; killed: boolean }>((resolve) => {
    const child = execFile(
      process.execPath,
      ['--import', 'tsx', ...imports.flatMap((file) => ['--import', file]), join(ROOT, 'server/cli/main.ts'), 'conformance', ...args],
      { cwd: ROOT, env: { PATH: process.env['PATH'] ?? '', ...env }, timeout: limitMs, killSignal: 'SIGKILL' },
      (_error, stdout, stderr) => resolve({ code: child.exitCode, stdout, stderr, ms: Date.now() - started, killed: child.signalCode === 'SIGKILL' }),
    );
  });
}

const DEADLINE_S = 2;
/** The deadline, the start of a child node with tsx (a few seconds on a busy machine) and slack; far below a hang. */
const LIMIT_MS = 25_000;

for (
  const [name, imports] of [
    ['the kit alone', []],
    ['with a connection of the process that the target holds open', [join(ROOT, 'test/server/_hold-open.ts')]],
  ] as const
) {
  test(`--deadline ${DEADLINE_S} against a target that holds its connections, ${name}: the report, exit 1, and the process exits`, async () => {
    const target = await holdingTarget();
    try {
      const args = ['--base-url', `http://127.0.0.1:${target.port}`, '--deadline', String(DEADLINE_S), '--format', 'tap', '--only', 'pricing,service'];
      const run = await conformance(args, [...imports], { HOLD_OPEN_PORT: String(target.port) }, LIMIT_MS);
      assert.is(run.killed, false, `still running after ${LIMIT_MS} ms: ${run.stderr}`);
      assert.is(run.code, 1, run.stdout + run.stderr);
      const lines = run.stdout.split('\n');
      assert.is(lines[0], 'TAP version 14');
      const failed = lines.filter((line) => line.startsWith('not ok'));
      assert.ok(failed.length > 0, run.stdout);
      assert.ok(lines.some((line) => /the run's deadline of 2 s passed \(--deadline\)/.test(line)), run.stdout);
      assert.ok(target.connections() > 0, 'the kit connected to the target');
    } finally {
      await target.close();
    }
  });
}

test.run();
