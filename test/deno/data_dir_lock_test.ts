/**
 * Deno tests of the PGlite data directory lock (`deno task test`, without --allow-run): Deno cannot
 * signal another process, so a lock counts as held while its holder keeps touching it.
 */
import { equal, throws } from 'node:assert/strict';
import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lockDataDir } from '../../server/data-dir-lock.ts';

/** A lock file of another process that runs (the task runner that started this test). */
function lockOfParent(dir: string, touchedSecondsAgo: number): void {
  const file = join(dir, 'converter-site-api.pid');
  writeFileSync(file, `${Deno.ppid}\n`);
  const at = new Date(Date.now() - touchedSecondsAgo * 1000);
  utimesSync(file, at, at);
}

Deno.test('a lock its holder touched within 30 s is held, though Deno cannot signal the holder', () => {
  const dir = Deno.makeTempDirSync();
  try {
    lockOfParent(dir, 5);
    throws(() => lockDataDir(dir), new RegExp(`is in use by process ${Deno.ppid}`));
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test('a lock nobody touched for 60 s was left by a crash and is taken over', () => {
  const dir = Deno.makeTempDirSync();
  try {
    lockOfParent(dir, 60);
    const release = lockDataDir(dir);
    equal(readFileSync(join(dir, 'converter-site-api.pid'), 'utf8'), `${Deno.pid}\n`);
    release();
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
