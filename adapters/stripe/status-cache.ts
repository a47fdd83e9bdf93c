/**
 * A short-lived cache of status answers, so that desktop apps polling every second do not turn into a
 * provider call per poll: answers are kept a few seconds, and concurrent polls of one session share
 * one call. Failures are not kept.
 *
 * @module
 */
import type { Clock } from '../../core/ports/ports.ts';
import { createRecentCache } from '../../core/clients/recent-cache.ts';

export interface StatusCache<T> {
  /** The cached answer for a session, or the one `load` gives (shared with concurrent callers). */
  get(sessionId: string, load: () => Promise<T>): Promise<T>;
  /** Drops a session's answer, e.g. when a notification says more than it. */
  forget(sessionId: string): void;
}

/**
 * Creates a cache.
 *
 * @param clock Where time comes from.
 * @param ttlMs How long an answer is kept.
 * @param maxEntries Sessions kept in each of the cache's two generations (see recent-cache.ts).
 */
export function createStatusCache<T>(clock: Clock, ttlMs: number, maxEntries = 10_000): StatusCache<T> {
  const answers = createRecentCache<string, { status: T; at: number }>(maxEntries);
  const inFlight = new Map<string, Promise<T>>();

  return {
    get(sessionId, load) {
      const known = answers.get(sessionId);
      if (known && clock.now() - known.at < ttlMs) return Promise.resolve(known.status);
      const pending = inFlight.get(sessionId);
      if (pending) return pending;
      const call = load()
        .then((status) => {
          answers.set(sessionId, { status, at: clock.now() });
          return status;
        })
        .finally(() => inFlight.delete(sessionId));
      inFlight.set(sessionId, call);
      return call;
    },
    forget(sessionId) {
      answers.delete(sessionId);
    },
  };
}
