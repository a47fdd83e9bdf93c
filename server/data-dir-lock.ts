/**
 * One process per PGlite data directory: PGlite is a database inside the process, and two processes
 * writing one directory would corrupt it. A lock file holding the owner's pid keeps the second out;
 * a lock left by a process that no longer runs is taken over.
 *
 * @module
 */
import { readFileSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from './config-error.ts';

const LOCK_FILE = 'converter-site-api.pid';
/** How often the holder touches its lock file, and how old a touch may be before the lock counts as left. */
const HEARTBEAT_MS = 10_000;
const STALE_MS = 3 * HEARTBEAT_MS;

/** Lock files this process holds now. */
const held = new Set<string>();

/**
 * Whether the process that wrote a lock still runs. Only a definite "no such process" counts as no. Where
 * a process cannot be signalled (Deno without --allow-run), the lock counts as left once its holder has
 * not touched it for STALE_MS, so two processes never share a directory and a crash does not lock it
 * for good.
 */
function ownerRuns(pid: number, file: string): boolean {
  // Our own pid in a lock we do not hold: a container restarted with the same pid after a crash.
  if (pid === process.pid) return held.has(file);
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ESRCH') return false;
    if (code === 'EPERM') return true;
    return Date.now() - statSync(file).mtimeMs < STALE_MS;
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
      held.add(file);
      const heartbeat = setInterval(() => {
        try {
          utimesSync(file, new Date(), new Date());
        } catch {
          // Removed by hand: there is nothing left to keep fresh.
        }
      }, HEARTBEAT_MS);
      // The heartbeat alone does not keep a Node process alive (Deno's timers have no unref).
      (heartbeat as { unref?: () => void }).unref?.();
      return () => {
        clearInterval(heartbeat);
        if (!held.delete(file)) return;
        unlinkSync(file);
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = Number(readFileSync(file, 'utf8').trim());
    if (Number.isInteger(owner) && owner > 0 && ownerRuns(owner, file)) {
      throw new ConfigError(
        `DATA_DIR ${dir} is in use by process ${owner}; PGlite allows one process per data directory ` +
          `(stop it first, or use STORAGE=postgres for several processes; if no process ${owner} runs, delete ${file})`,
      );
    }
    unlinkSync(file);
  }
  throw new ConfigError(`DATA_DIR ${dir}: could not take the lock ${LOCK_FILE}`);
}
