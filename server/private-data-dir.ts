/**
 * PGlite's DATA_DIR holds every vote, feedback address and license: owner-only, like PostgreSQL's own
 * data directory (initdb refuses anything looser than 0700).
 *
 * @module
 */
import { chmodSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Removes the group and other bits of a path, and of everything under it when it is a directory.
 *
 * @param path A file or directory.
 */
export function tighten(path: string): void {
  let stats;
  try {
    stats = statSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // removed while we walked
    throw error;
  }
  if ((stats.mode & 0o077) !== 0) chmodSync(path, stats.mode & 0o700);
  if (stats.isDirectory()) { for (const name of readdirSync(path)) tighten(join(path, name)); }
}

/**
 * Creates the data directory owner-only (0700), tightens what an older version left in it (files 0600,
 * directories 0700), and sets the process umask so that what this process and its children create is
 * owner-only too. PGlite's file system sets some modes itself (0666), so the caller tightens the
 * directory again once PGlite has written it; the directory's own 0700 already keeps others out.
 *
 * @param dir The data directory.
 */
export function preparePrivateDataDir(dir: string): void {
  try {
    process.umask(process.umask() | 0o077);
  } catch {
    // Deno without --allow-sys may not read the umask: the directory's 0700 and the tightening at open
    // and close keep others out all the same.
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  tighten(dir);
}
