/**
 * The desktop version from the product's version file, re-read when the file changes (no restart).
 *
 * @module
 */
import { readFile, stat } from 'node:fs/promises';
import * as v from 'valibot';
import type { Clock, Logger, VersionSource } from '../../core/ports/ports.ts';
import { VersionString } from '../../core/schemas/responses.ts';

/** The version in a file's text: the first line, trimmed (a "v" prefix is dropped). */
export function parseVersionText(text: string): string {
  const first = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0]!.trim().replace(/^v/i, '');
  const checked = v.safeParse(VersionString, first);
  if (!checked.success) throw new Error(`the version file holds ${JSON.stringify(first)}, which ${checked.issues[0].message}`);
  return checked.output;
}

export interface VersionFileOptions {
  clock: Clock;
  logger: Logger;
  /** How often the file's modification time is checked, in milliseconds; 1000 by default. */
  checkEveryMs?: number;
}

/**
 * Opens the version file; fails when it cannot be read or holds no version, so a bad deployment stops at
 * start. Later, a file that becomes unreadable or invalid is logged and the last good version is served.
 *
 * @param path The file.
 * @param options The clock and logger.
 */
export async function openVersionFile(path: string, options: VersionFileOptions): Promise<VersionSource> {
  const every = options.checkEveryMs ?? 1000;
  const stamp = (info: { mtimeMs: number; size: number }) => `${info.mtimeMs}/${info.size}`;
  let seen = stamp(await stat(path));
  let current = parseVersionText(await readFile(path, 'utf8'));
  let checkedAt = options.clock.now();
  let pending: Promise<string> | null = null;

  const refresh = async (): Promise<string> => {
    try {
      const info = await stat(path);
      if (stamp(info) !== seen) {
        current = parseVersionText(await readFile(path, 'utf8'));
        seen = stamp(info);
      }
    } catch (error) {
      options.logger.error('could not read the version file; serving the last good version', {
        path,
        version: current,
        error: error instanceof Error ? error.message : String(error),
      });
    }
    return current;
  };

  return {
    current() {
      const now = options.clock.now();
      if (now - checkedAt < every) return current;
      checkedAt = now;
      pending ??= refresh().finally(() => (pending = null));
      return pending;
    },
  };
}
