/**
 * The bounds of the in-memory storage: how much of each kind of record it keeps at most, and the answer
 * when one is full. Process memory is the only room it has, so every kind a client can add to is capped.
 *
 * @module
 */
import { ApiError } from '../../core/http/errors.ts';
import type { FeedbackEntry } from '../../core/ports/ports.ts';

/** The most records of each kind kept at once. */
export interface MemoryCaps {
  /**
   * Feedback, in estimated bytes (`feedbackSize`; kept until restart, as SQL keeps it for good): 64 MiB,
   * about 6,500 entries of 5,000 characters (63 MiB of heap, measured) or 181,000 of one sentence (27 MiB).
   */
  feedbackBytes: number;
  /** Checkout sessions of any state; retention frees unpaid ones as SQL's does: 100,000, about 60 MB. */
  checkoutSessions: number;
  /** Roadmap votes over all features: 1,000,000, about 100 MB. */
  votes: number;
  /** Download events; past it a download is still redirected, only not counted: 1,000,000, about 80 MB. */
  downloads: number;
}

export const DEFAULT_MEMORY_CAPS: Readonly<MemoryCaps> = {
  feedbackBytes: 64 * 1024 * 1024,
  checkoutSessions: 100_000,
  votes: 1_000_000,
  downloads: 1_000_000,
};

/**
 * The bounds of a Cloudflare Worker's memory storage: an isolate has 128 MB for everything, so these keep
 * the storage under 57 MiB (59 MB) with every kind full of its largest records. Measured on V8 at the
 * caps: 16 MiB of feedback of 5,000 non-Latin-1 characters; 1,391 bytes a session paid through Stripe with
 * two license keys (268 unpaid on the simulator); 98 bytes a vote; 83 a download event; 213 a rate-limit
 * window of an IPv6 /64 (138 of an IPv4 client).
 */
export const WORKER_MEMORY_LIMITS: { readonly caps: Readonly<MemoryCaps>; readonly maxRateLimitClients: number } = {
  caps: {
    feedbackBytes: 16 * 1024 * 1024,
    checkoutSessions: 10_000,
    votes: 100_000,
    downloads: 100_000,
  },
  maxRateLimitClients: 50_000,
};

/**
 * What one feedback entry costs at most, in bytes: two per UTF-16 code unit of its texts and 256 for the
 * entry itself (measured: 10,000 entries of 5,000 characters took 51 MB of heap).
 */
export function feedbackSize(entry: FeedbackEntry): number {
  return 256 + 2 * (entry.description.length + (entry.email?.length ?? 0) + (entry.appVersion?.length ?? 0));
}

const NAMES: Record<keyof MemoryCaps, (cap: number) => string> = {
  feedbackBytes: (cap) => `feedback (${cap} bytes)`,
  checkoutSessions: (cap) => `checkout sessions (${cap})`,
  votes: (cap) => `roadmap votes (${cap})`,
  downloads: (cap) => `download events (${cap})`,
};

/** When retrying helps, for a kind kept until the process ends (feedback). */
export const KEPT_UNTIL_RESTART = 'Retrying does not help before the server restarts: its in-memory storage keeps these until then. Contact support.';
/** When retrying helps, for votes: once some are taken back. */
export const VOTES_TAKEN_BACK = 'Retry once other votes are taken back, or after the server restarts; contact support if it persists.';

/**
 * When retrying helps for checkout sessions: once the first unpaid one is dropped by retention.
 *
 * @param retires When the first unpaid session is dropped (the last sweep's finding), or null when none is.
 * @param now The time now.
 */
export function untilRetirement(retires: number | null, now: number): string {
  if (retires === null) return KEPT_UNTIL_RESTART;
  return `Retry after ${new Date(Math.max(retires, now)).toISOString()}, when the first unpaid checkout session is dropped 7 days after it expired.`;
}

/**
 * Throws 503 storage_full unless `adding` more of a kind fits beside the `used` it holds.
 *
 * @param caps The caps.
 * @param kind The kind about to grow.
 * @param used How much of it is held now.
 * @param adding How much the new record takes: 1, or its size for feedback.
 * @param resolution When retrying helps.
 */
export function checkRoom(caps: MemoryCaps, kind: keyof MemoryCaps, used: number, adding = 1, resolution?: string): void {
  if (used + adding <= caps[kind]) return;
  throw new ApiError(
    'storage_full',
    `The server's in-memory storage holds the most ${NAMES[kind](caps[kind])} it may; nothing was stored.`,
    resolution,
  );
}
