/**
 * A short-lived cache of status answers, so that desktop apps polling every second do not turn into a
 * provider call per poll: answers are kept a few seconds, and concurrent polls of one session share
 * one call. Failures are not kept.
 *
 * @module
 */
import type { Clock, GatewayStatus } from '../../core/ports.ts';

export interface StatusCache {
  /** The cached answer for a session, or the one `load` gives (shared with concurrent callers). */
  get(sessionId: string, load: () => Promise<GatewayStatus>): Promise<GatewayStatus>;
  /** Drops a session's answer, e.g. when a notification says more than it. */
  forget(sessionId: string): void;
}

/**
 * Creates a cache.
 *
 * @param clock Where time comes from.
 * @param ttlMs How long an answer is kept.
 * @param maxEntries The most sessions kept at once; the oldest answer goes first.
 */
export function createStatusCache(clock: Clock, ttlMs: number, maxEntries = 10_000): StatusCache {
  const answers = new Map<string, { status: GatewayStatus; at: number }>();
  const inFlight = new Map<string, Promise<GatewayStatus>>();

  return {
    get(sessionId, load) {
      const known = answers.get(sessionId);
      if (known && clock.now() - known.at < ttlMs) return Promise.resolve(known.status);
      const pending = inFlight.get(sessionId);
      if (pending) return pending;
      const call = load()
        .then((status) => {
          answers.delete(sessionId);
          if (answers.size >= maxEntries) answers.delete(answers.keys().next().value as string);
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
