/**
 * The rate-limit store of the SQL storages: the shared counters of rate-limits.ts, keyed by a keyed
 * hash of the client key (no address at rest), and this instance's own counters while the database
 * does not answer, so that each instance still holds the limit on its own during an outage.
 *
 * @module
 */
import { createKeyedHash, randomSecret, type SyncHmacSha256 } from '../../core/keyed-hash.ts';
import type { Clock, Logger, MaybePromise, RateLimitHit, RateLimitStore } from '../../core/ports.ts';
import { createMemoryRateLimitStore, type MemoryRateLimitStore } from '../memory/rate-limits.ts';
import type { SqlSession } from './client.ts';
import { createSqlRateLimitStore, type BatchOptions } from './rate-limits.ts';
import { secret } from './records.ts';

/** The name of the stored secret of rate-limit keys (distinct from the voter secret, so the two never match). */
export const RATE_LIMIT_SECRET = 'rate-limit-secret';

/** Settings of the shared store. */
export interface SharedRateLimitOptions {
  /** Batching of the shared counters. */
  batch?: BatchOptions;
  /** A synchronous HMAC-SHA-256 for the keys (node:crypto's); Web Crypto when absent. */
  hmacSha256?: SyncHmacSha256;
  /** The clock of the local counters and of the probes; the system clock when absent. */
  clock?: Clock;
  /** Where the switches between shared and local counters are logged. */
  logger?: Logger;
  /** How often, while counting locally, one request tries the database again: 1 s by default. */
  probeEveryMs?: number;
  /**
   * What outlives one store: the loaded key hash, the local counters and the probe time. A program that
   * builds a storage per request (the Cloudflare Worker) passes one state per isolate, so it reads the
   * secret once and its local counters survive from request to request; by default each store has its own.
   */
  state?: SharedRateLimitState;
}

/** The state a store keeps between hits; see `SharedRateLimitOptions.state`. */
export interface SharedRateLimitState {
  hashing: Promise<(key: string) => MaybePromise<string>> | null;
  hash: ((key: string) => MaybePromise<string>) | null;
  local: MemoryRateLimitStore | null;
  nextProbe: number;
}

/** A fresh state: nothing loaded, counting on the database. */
export function createSharedRateLimitState(): SharedRateLimitState {
  return { hashing: null, hash: null, local: null, nextProbe: 0 };
}

/** The store, plus what tests and the benchmark look at. */
export interface SharedRateLimitStore extends RateLimitStore {
  /** Statements run so far on the shared counters. */
  readonly statements: number;
  /** Whether this instance counts on its own now (the database did not answer). */
  readonly local: boolean;
}

/**
 * Creates the store.
 *
 * While the database answers, every hit is counted in the shared table under HMAC-SHA-256(secret, key),
 * the secret kept in the `secrets` table. When a batch fails (an error, or no answer within its
 * deadline), its hits and every hit after it are counted in a fresh in-process store (fixed windows on
 * `clock`) and answered at once; one hit a second probes the database, and the first that gets an
 * answer switches back to the shared counters.
 *
 * @param db Where the shared counters and the secret live.
 * @param options Batching, hashing, clock, logging.
 */
export function createSharedRateLimitStore(db: SqlSession, options: SharedRateLimitOptions = {}): SharedRateLimitStore {
  const clock = options.clock ?? { now: () => Date.now() };
  const probeEveryMs = options.probeEveryMs ?? 1000;
  const counters = createSqlRateLimitStore(db, options.batch);
  const state = options.state ?? createSharedRateLimitState();

  const loadHash = (): Promise<(key: string) => MaybePromise<string>> =>
    (state.hashing ??= secret(db, RATE_LIMIT_SECRET, randomSecret)
      .then((value) => createKeyedHash(value, options.hmacSha256))
      .then(
        (ready) => (state.hash = ready),
        (error: unknown) => {
          state.hashing = null;
          throw error;
        },
      ));

  /** The hit on the shared counters: no promise besides the batch's own once the hash is loaded and cached. */
  const shared = (key: string, windowMs: number): Promise<RateLimitHit> => {
    const hashed = state.hash ? state.hash(key) : loadHash().then((ready) => ready(key));
    return typeof hashed === 'string' ? counters.hit(hashed, windowMs) : hashed.then((h) => counters.hit(h, windowMs));
  };

  const recovered = (hit: RateLimitHit): RateLimitHit => {
    if (state.local) {
      state.local = null;
      options.logger?.info('rate limit database answers again; counting on the shared counters');
    }
    return hit;
  };

  const fallBack = (error: unknown, key: string, windowMs: number): RateLimitHit => {
    if (!state.local) {
      state.local = createMemoryRateLimitStore(clock);
      state.nextProbe = clock.now() + probeEveryMs;
      options.logger?.warn('rate limit database unavailable; counting on this instance until it answers', {
        error: String(error),
      });
    }
    return state.local.hit(key, windowMs);
  };

  return {
    get statements() {
      return counters.statements;
    },
    get local() {
      return state.local !== null;
    },
    hit(key, windowMs) {
      if (state.local) {
        const now = clock.now();
        if (now < state.nextProbe) return state.local.hit(key, windowMs);
        state.nextProbe = now + probeEveryMs;
      }
      return shared(key, windowMs).then(recovered, (error: unknown) => fallBack(error, key, windowMs));
    },
  };
}
