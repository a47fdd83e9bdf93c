/**
 * The disk reserve of a PGlite data directory. PGlite runs Postgres inside the process: when a write of
 * the write-ahead log fails for want of space, Postgres retries it in XLogFlush for good, on the thread
 * that serves every request, so the whole server stops answering until it is killed (measured: a 120 MiB
 * tmpfs, a feedback flood). So writes are refused while the disk has less free space than the reserve,
 * before Postgres can reach that state, and allowed again as soon as space returns.
 *
 * @module
 */
import { ApiError } from '../../core/http/errors.ts';

/** What the reserve needs: the free bytes of the data directory's file system, and how many to keep. */
export interface DiskReserve {
  /** Bytes free for this process on the data directory's file system (statfs `bavail * bsize`). */
  freeBytes(): number;
  /** Writes are refused while fewer bytes than this are free; 0 turns the reserve off. */
  reserveBytes: number;
}

/** 64 MiB: four write-ahead log segments of 16 MiB, and room for the batches under way while it is checked. */
export const DEFAULT_DISK_RESERVE_BYTES = 64 * 1024 * 1024;

/**
 * Checks the reserve before a write.
 *
 * @param reserve The free-space reading and the reserve.
 * @returns A check that throws 503 storage_full while the disk is nearly full, and does nothing otherwise.
 */
export function diskReserveCheck(reserve: DiskReserve): () => void {
  const { reserveBytes } = reserve;
  if (reserveBytes <= 0) return () => {};
  return () => {
    if (reserve.freeBytes() >= reserveBytes) return;
    throw new ApiError('storage_full', "The server's disk is nearly full; nothing was stored.");
  };
}
