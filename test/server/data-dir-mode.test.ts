/**
 * PGlite's DATA_DIR is owner-only: a server started with umask 0 creates its directories 0700 and its
 * files 0600, and tightens a directory an older version left readable by others.
 */
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { sendHttp } from '../_setup.ts';
import { startServerProcess } from '../_spawn.ts';

/** Every path under dir (dir included) with its permission bits, where group or others have any. */
function loose(dir: string): string[] {
  const found: string[] = [];
  const walk = (path: string) => {
    const stats = statSync(path);
    if ((stats.mode & 0o077) !== 0) found.push(`${path} ${(stats.mode & 0o777).toString(8)}`);
    if (stats.isDirectory()) { for (const name of readdirSync(path)) walk(join(path, name)); }
  };
  walk(dir);
  return found;
}

test('with umask 0, a new DATA_DIR and everything in it is owner-only, and an old loose file is tightened', async () => {
  const parent = mkdtempSync(join(tmpdir(), 'data-dir-mode-'));
  const dataDir = join(parent, 'data');
  mkdirSync(join(dataDir, 'old'), { recursive: true, mode: 0o777 });
  writeFileSync(join(dataDir, 'old', 'left-behind'), 'x', { mode: 0o666 });
  chmodSync(dataDir, 0o777);
  chmodSync(join(dataDir, 'old'), 0o777);
  chmodSync(join(dataDir, 'old', 'left-behind'), 0o666);
  const umask = process.umask(0);
  try {
    const server = await startServerProcess({ STORAGE: 'pglite', DATA_DIR: dataDir });
    try {
      const vote = await sendHttp(server.port, {
        method: 'POST',
        path: '/api/v1/roadmap',
        headers: { 'content-type': 'application/json' },
        body: '{"featureId":1}',
      });
      assert.is(vote.status, 200);
      assert.ok(readdirSync(dataDir).length > 2, 'PGlite wrote its files');
      assert.equal(loose(dataDir), []);
      assert.is(statSync(dataDir).mode & 0o777, 0o700);
      assert.is(statSync(join(dataDir, 'old', 'left-behind')).mode & 0o777, 0o600);
    } finally {
      server.child.kill('SIGTERM');
      assert.is(await server.exited, 0);
    }
    assert.equal(loose(dataDir), [], 'nothing loose after the shutdown either');
  } finally {
    process.umask(umask);
    rmSync(parent, { recursive: true, force: true });
  }
});

test.run();
