import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ConfigError } from '../../server/config-error.ts';
import { lockDataDir } from '../../server/data-dir-lock.ts';
import { freshPgliteDir } from '../_databases.ts';
import { type ServerProcess, startServerProcess } from '../_spawn.ts';

const dir = mkdtempSync(join(tmpdir(), 'site-api-lock-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));

test('a data directory is held by one process; a second open is refused with the owner named', () => {
  const release = lockDataDir(dir);
  assert.is(readFileSync(join(dir, 'converter-site-api.pid'), 'utf8'), `${process.pid}\n`);
  assert.throws(
    () => lockDataDir(dir),
    (error: unknown) =>
      error instanceof ConfigError &&
      error.message ===
        `DATA_DIR ${dir} is in use by process ${process.pid}; PGlite allows one process per data directory ` +
          `(stop it first, or use STORAGE=postgres for several processes; if no process ${process.pid} runs, delete ${join(dir, 'converter-site-api.pid')})`,
  );
  release();
  lockDataDir(dir)();
});

test('a lock left by a process that no longer runs is taken over', () => {
  writeFileSync(join(dir, 'converter-site-api.pid'), '999999999\n');
  const release = lockDataDir(dir);
  assert.is(readFileSync(join(dir, 'converter-site-api.pid'), 'utf8'), `${process.pid}\n`);
  release();
});

test('a lock with our own pid that we do not hold (a container restarted after a crash) is taken over', () => {
  writeFileSync(join(dir, 'converter-site-api.pid'), `${process.pid}\n`);
  const release = lockDataDir(dir);
  assert.throws(() => lockDataDir(dir), /is in use by process/);
  release();
  assert.not.ok(existsSync(join(dir, 'converter-site-api.pid')), 'released');
});

test('a second server on the DATA_DIR of a running one stops with exit 78 and says why', async () => {
  const dataDir = await freshPgliteDir();
  // Each stopped and the directory removed whatever failed: a second server that did start is stopped
  // too, and the exit code is asserted only once everything is gone.
  let first: ServerProcess | undefined;
  let second: ServerProcess | undefined;
  let firstExit: number | null = null;
  try {
    first = await startServerProcess({ DATA_DIR: dataDir });
    const refused = await startServerProcess({ DATA_DIR: dataDir }).then(
      (started) => ((second = started), 'started'),
      (error: Error) => error.message,
    );
    assert.match(refused, 'exited with 78 before listening');
    assert.match(refused, `"configuration error: DATA_DIR ${dataDir} is in use by process `);
  } finally {
    await second?.stop();
    if (first) firstExit = await first.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  assert.is(firstExit, 0);
});

test.run();
