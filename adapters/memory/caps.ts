/**
 * The bounds of the in-memory storage: how many records of each kind it keeps at most, and the answer
 * when one is full. Process memory is the only room it has, so every kind a client can add to is capped.
 *
 * @module
 */
import { ApiError } from '../../core/errors.ts';

/** The most records of each kind kept at once. */
export interface MemoryCaps {
  /** Feedback entries (kept until restart, as SQL keeps them forever): 10,000, about 50 MB of long ones. */
  feedback: number;
  /** Checkout sessions of any state; retention frees unpaid ones as SQL's does: 100,000, about 60 MB. */
  checkoutSessions: number;
  /** Roadmap votes over all features: 1,000,000, about 100 MB. */
  votes: number;
  /** Download events; past it a download is still redirected, only not counted: 1,000,000, about 80 MB. */
  downloads: number;
}

export const DEFAULT_MEMORY_CAPS: Readonly<MemoryCaps> = {
  feedback: 10_000,
  checkoutSessions: 100_000,
  votes: 1_000_000,
  downloads: 1_000_000,
};

const NAMES: Record<keyof MemoryCaps, string> = {
  feedback: 'feedback entries',
  checkoutSessions: 'checkout sessions',
  votes: 'roadmap votes',
  downloads: 'download events',
};

/**
 * Throws 503 storage_full when `count` records of a kind have reached its cap.
 *
 * @param caps The caps.
 * @param kind The kind about to grow by one.
 * @param count How many it holds now.
 */
export function checkRoom(caps: MemoryCaps, kind: keyof MemoryCaps, count: number): void {
  if (count < caps[kind]) return;
  throw new ApiError(
    'storage_full',
    `The server's in-memory storage holds the most ${NAMES[kind]} it may (${caps[kind]}); nothing was stored.`,
  );
}
