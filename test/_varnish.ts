/**
 * A real HTTP cache in front of a test server: Debian's varnishd (`apt-get install varnish`; .ci/run
 * installs it), in the foreground, with no jail (so it runs as the test's user), its working directory a
 * temporary one, caching as its built-in VCL does (Cache-Control's max-age; no-store is passed on).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, portAnswers } from './_spawn.ts';

export interface Varnish {
  /** Where the cache listens: http://127.0.0.1:<port>. */
  url: string;
  /** Everything varnishd printed (for failure messages). */
  output(): string;
  stop(): Promise<void>;
}

/** varnishd's path, or null when it is not installed. */
export function varnishPath(): string | null {
  return ['/usr/sbin/varnishd', '/usr/local/sbin/varnishd'].find((path) => existsSync(path)) ?? null;
}

/**
 * Starts varnishd in front of `backendPort` on 127.0.0.1 and waits until it answers.
 *
 * @throws Error when varnishd is missing or exits before it listens.
 */
export async function startVarnish(backendPort: number): Promise<Varnish> {
  const path = varnishPath();
  if (path === null) throw new Error('the cache tests need varnishd: apt-get install varnish');
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'varnish-'));
  const child = spawn(path, ['-j', 'none', '-F', '-a', `127.0.0.1:${port}`, '-b', `127.0.0.1:${backendPort}`, '-n', dir, '-s', 'malloc,32m'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let printed = '';
  child.stdout.on('data', (chunk: Buffer) => void (printed += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => void (printed += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let gone = false;
  void exited.then(() => (gone = true));
  while (!(await portAnswers(port))) {
    if (gone) throw new Error(`varnishd exited before it listened:\n${printed}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    output: () => printed,
    async stop() {
      if (!gone) child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
