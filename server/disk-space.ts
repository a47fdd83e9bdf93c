/**
 * Free space of a directory's file system, for PGlite's disk reserve (adapters/pglite/disk-reserve.ts).
 *
 * @module
 */
import { statfsSync } from 'node:fs';
import type { Logger } from '../core/ports/ports.ts';

/**
 * A reading of the bytes free to this process under `directory`. A runtime or file system that cannot say
 * reads as unlimited (the reserve is then off), and the first such failure is logged once.
 *
 * @param directory The data directory.
 * @param logger Where an unreadable file system is reported.
 */
export function freeBytesOf(directory: string, logger: Logger): () => number {
  let reported = false;
  return () => {
    try {
      const stats = statfsSync(directory);
      return Number(stats.bavail) * Number(stats.bsize);
    } catch (error) {
      if (!reported) {
        reported = true;
        logger.warn('the free space of DATA_DIR cannot be read; the disk reserve is off', { error: (error as Error).message });
      }
      return Number.POSITIVE_INFINITY;
    }
  };
}
