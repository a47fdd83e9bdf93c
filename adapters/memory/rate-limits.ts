/**
 * Fixed-window counters in a Map, with bounded memory.
 *
 * @module
 */
import { ipv4Value } from '../../core/clients/client-ip.ts';
import type { Clock, RateLimitHit, RateLimitStore } from '../../core/ports/ports.ts';

interface Window {
  count: number;
  resetAt: number;
}

/** The in-process store: synchronous, with its number of live windows. */
export interface MemoryRateLimitStore extends RateLimitStore {
  hit(key: string, windowMs: number): RateLimitHit;
  /**
   * Takes a count another store gave for the same client: the window ends when that one does, and its
   * count is at least `count` (SQL's shared counters, so this instance's own window follows the shared one).
   */
  align(key: string, count: number, resetMs: number): void;
  readonly size: number;
}

/**
 * The Map key of a client: IPv4 clients by their 32-bit value as an int32 (a small integer to V8), whose
 * hashing and comparing is cheaper than a fresh string's, which shows at 100k clients; other keys as they are.
 */
function mapKey(client: string): string | number {
  const v4 = ipv4Value(client);
  return v4 >= 0 ? v4 | 0 : client;
}

/** How often ended windows are dropped. Between two sweeps an ended window costs its memory, nothing more. */
const EVICT_EVERY_MS = 1000;

/**
 * Creates an in-process counter store.
 *
 * A window is re-inserted whenever it starts, so the Map's order is the order in which windows end and
 * expired ones are always at its head: a sweep once a second drops them, and idle clients cost nothing
 * after their window ends. Past `maxClients` live windows, the oldest is dropped (that client starts afresh).
 *
 * @param clock Where time comes from.
 * @param maxClients The most clients tracked at once.
 */
export function createMemoryRateLimitStore(clock: Clock, maxClients = 1_000_000): MemoryRateLimitStore {
  const windows = new Map<string | number, Window>();

  let nextEviction = -Infinity;

  /** Drops ended windows from the head, at most once a second: one Map iterator per second, not per hit. */
  const evict = (now: number): void => {
    if (now < nextEviction) return;
    nextEviction = now + EVICT_EVERY_MS;
    for (const [key, window] of windows) {
      if (window.resetAt > now) break;
      windows.delete(key);
    }
  };

  return {
    get size() {
      return windows.size;
    },
    hit(client, windowMs): RateLimitHit {
      const now = clock.now();
      evict(now);
      const key = mapKey(client);
      let window = windows.get(key);
      if (window && window.resetAt > now) {
        window.count++;
      } else {
        if (window) windows.delete(key);
        else if (windows.size >= maxClients) windows.delete(windows.keys().next().value!);
        window = { count: 1, resetAt: now + windowMs };
        windows.set(key, window);
      }
      return { count: window.count, resetMs: window.resetAt - now };
    },
    align(client, count, resetMs) {
      const now = clock.now();
      const key = mapKey(client);
      const window = windows.get(key);
      const kept = window && window.resetAt > now ? window.count : 0;
      // Re-inserted: the Map stays (close to) the order in which windows end.
      windows.delete(key);
      if (windows.size >= maxClients) windows.delete(windows.keys().next().value!);
      windows.set(key, { count: Math.max(kept, count), resetAt: now + resetMs });
    },
  };
}
