/**
 * The program's commands in process: `runProgram` (server/cli/program.ts, what server/cli/main.ts runs)
 * with a captured `io` and the environment `runCli` (test/_spawn.ts) gives its child: PATH and `env`
 * only. For tests of what a command prints and exits with; the program as a process (its arguments
 * through main.ts, its streams, its exit code) keeps one `runCli` per command family and
 * test/server/cli.test.ts.
 *
 * What a command writes to process.stdout or process.stderr itself (its logger's lines) is captured with
 * what it writes to `io`, as a user's terminal shows both. Calls run one at a time (each swaps process.env,
 * those two writers and, when asked, the working folder for its own), in the order they were made.
 *
 * `apps` answers the command's requests to an origin in process, through the fetch binding
 * (adapters/fetch, the one Deno, Bun and Workers run): an operator listener with no socket, so that the
 * test runs in the unit tier. Requests to any other origin go to the network only when it is this machine
 * (loopback); any other fails as an unreachable address does.
 */
import { createFetchHandler } from '../adapters/fetch/index.ts';
import type { App } from '../core/app.ts';
import { runProgram } from '../server/cli/program.ts';
import { isLoopbackUrl } from '../server/cli/payments.ts';

/** What a command printed and its exit code, as `runCli` gives them. */
export interface CommandRun {
  code: number;
  stdout: string;
  stderr: string;
}

let last: Promise<unknown> = Promise.resolve();

/**
 * `converter-site-api <args...>` in this process, with PATH and `env` as its whole environment.
 *
 * @param args The words after the program's name.
 * @param env The environment besides PATH.
 * @param apps Origins (`http://operator.test`) answered by an app in process, from 127.0.0.1.
 * @param cwd The folder it runs in (relative file names are read and written there); this process's by default.
 */
export function runCommand(args: string[], env: Record<string, string>, apps: Record<string, App> = {}, cwd?: string): Promise<CommandRun> {
  const handlers = new Map(Object.entries(apps).map(([origin, app]) => [new URL(origin).origin, createFetchHandler(app)]));
  const run = last.then(async () => {
    const saved = { env: process.env, stdout: process.stdout.write, stderr: process.stderr.write, fetch: globalThis.fetch, cwd: process.cwd() };
    const out = { stdout: '', stderr: '' };
    const writer = (stream: 'stdout' | 'stderr') => (chunk: string | Uint8Array, ...rest: unknown[]) => {
      out[stream] += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      const done = rest.find((arg) => typeof arg === 'function') as (() => void) | undefined;
      done?.();
      return true;
    };
    process.env = { PATH: saved.env['PATH'] ?? '', ...env };
    if (cwd !== undefined) process.chdir(cwd);
    process.stdout.write = writer('stdout') as typeof process.stdout.write;
    process.stderr.write = writer('stderr') as typeof process.stderr.write;
    // Nothing leaves this machine: an origin no app answers goes to the network only when it is loopback.
    globalThis.fetch = async (input, init) => {
      const request = new Request(input, init);
      const url = new URL(request.url);
      const handler = handlers.get(url.origin);
      if (handler) return await handler(request, '127.0.0.1');
      if (!isLoopbackUrl(url)) throw new TypeError(`fetch failed: ${url.origin} is neither answered in process nor on this machine`);
      return saved.fetch(request);
    };
    try {
      const code = await runProgram(args, { stdout: (text) => void (out.stdout += text), stderr: (text) => void (out.stderr += text) });
      return { code, ...out };
    } finally {
      process.env = saved.env;
      process.stdout.write = saved.stdout;
      process.stderr.write = saved.stderr;
      globalThis.fetch = saved.fetch;
      process.chdir(saved.cwd);
    }
  });
  last = run.catch(() => undefined);
  return run;
}
