/**
 * One process per PGlite data directory: PGlite is a database inside the process, and two processes
 * writing one directory would corrupt it. A lock file holding the owner's pid keeps the second out;
 * a lock left by a process that no longer runs is taken over.
 *
 * @module
 */
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from './config-error.ts';

const LOCK_FILE = 'converter-site-api.pid';

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the lock of a data directory.
 *
 * @param dir The data directory (it exists).
 * @returns A function that releases the lock.
 * @throws ConfigError naming the process that holds it.
 */
export function lockDataDir(dir: string): () => void {
  const file = join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, `${process.pid}\n`, { flag: 'wx' });
      let released = false;
      return () => {
        if (released) return;
        released = true;
        unlinkSync(file);
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = Number(readFileSync(file, 'utf8').trim());
    if (Number.isInteger(owner) && owner > 0 && isRunning(owner)) {
      throw new ConfigError(
        `DATA_DIR ${dir} is in use by process ${owner}; PGlite allows one process per data directory ` +
          '(stop it first, or use STORAGE=postgres for several processes)',
      );
    }
    unlinkSync(file);
  }
  throw new ConfigError(`DATA_DIR ${dir}: could not take the lock ${LOCK_FILE}`);
}
