/**
 * A real HTTP cache in front of a test server: Debian's varnishd (`apt-get install varnish`; .ci/run
 * installs it), in the foreground, with no jail (so it runs as the test's user), its working directory a
 * temporary one, caching as its built-in VCL does (Cache-Control's max-age; no-store is passed on), or
 * with the VCL of docs/caches/varnish-updates.vcl (the purge by BAN), its backend set to the server's port.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, portAnswers } from './_spawn.ts';

export interface Varnish {
  /** Where the cache listens: http://127.0.0.1:<port>. */
  url: string;
  /** Everything varnishd printed (for failure messages). */
  output(): string;
  /** A counter of varnishstat, such as MAIN.bans_obj_killed. */
  counter(name: string): number;
  stop(): Promise<void>;
}

/** varnishd's path, or null when it is not installed. */
export function varnishPath(): string | null {
  return ['/usr/sbin/varnishd', '/usr/local/sbin/varnishd'].find((path) => existsSync(path)) ?? null;
}

/** The VCL the docs ship, in front of `backendPort`. */
const DOCS_VCL = new URL('../docs/caches/varnish-updates.vcl', import.meta.url);

/**
 * Starts varnishd in front of `backendPort` on 127.0.0.1 and waits until it answers.
 *
 * @param options.docsVcl Runs docs/caches/varnish-updates.vcl (its backend's port replaced) instead of the built-in VCL alone.
 * @throws Error when varnishd is missing or exits before it listens.
 */
export async function startVarnish(backendPort: number, options: { docsVcl?: boolean } = {}): Promise<Varnish> {
  const path = varnishPath();
  if (path === null) throw new Error('the cache tests need varnishd: apt-get install varnish');
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'varnish-'));
  let backend = ['-b', `127.0.0.1:${backendPort}`];
  if (options.docsVcl) {
    const vcl = readFileSync(DOCS_VCL, 'utf8');
    const ours = vcl.replace(/\.port = "\d+";/, `.port = "${backendPort}";`);
    if (ours === vcl) throw new Error('docs/caches/varnish-updates.vcl names no backend .port');
    writeFileSync(join(dir, 'updates.vcl'), ours);
    backend = ['-f', join(dir, 'updates.vcl')];
  }
  const child = spawn(path, ['-j', 'none', '-F', '-a', `127.0.0.1:${port}`, ...backend, '-n', dir, '-s', 'malloc,32m'], {
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
    counter(name) {
      const text = execFileSync('varnishstat', ['-n', dir, '-1', '-f', name], { encoding: 'utf8' });
      const value = new RegExp(`^${name.replaceAll('.', '\\.')}\\s+(\\d+)`, 'm').exec(text)?.[1];
      if (value === undefined) throw new Error(`varnishstat has no ${name}:\n${text}`);
      return Number(value);
    },
    async stop() {
      if (!gone) child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
