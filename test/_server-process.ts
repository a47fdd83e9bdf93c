/**
 * The real server program (server/main.ts) in a child process, as an operator runs it: for tests that
 * need several instances, a restart, or a database that goes away.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadScaled } from './_load.ts';

const MAIN = fileURLToPath(new URL('../server/main.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** A running server process. */
export interface ServerProcess {
  port: number;
  /** Every log line so far (stdout and stderr, JSON lines). */
  readonly lines: string[];
  /** SIGTERM, then waits for the exit; resolves with the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Starts `node --import tsx server/main.ts` on 127.0.0.1 at a free port and waits for its "listening" line.
 *
 * @param env Settings added to a clean environment (PATH and HOME are kept).
 */
export function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    cwd: ROOT,
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const startMs = loadScaled(30_000);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start in ${startMs} ms:\n${lines.join('\n')}`));
    }, startMs);
    const onLine = (line: string) => {
      lines.push(line);
      if (!line.includes('"message":"listening"')) return;
      clearTimeout(timer);
      const port = Number(new URL((JSON.parse(line) as { url: string }).url).port);
      resolve({
        port,
        lines,
        stop: () => {
          child.kill('SIGTERM');
          return exited;
        },
      });
    };
    for (const stream of [child.stdout, child.stderr]) {
      let rest = '';
      stream?.setEncoding('utf8');
      stream?.on('data', (chunk: string) => {
        const parts = (rest + chunk).split('\n');
        rest = parts.pop() ?? '';
        for (const line of parts) onLine(line);
      });
    }
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening:\n${lines.join('\n')}`));
    });
  });
}
