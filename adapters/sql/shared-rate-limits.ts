/**
 * The rate-limit store of the SQL storages: the shared counters of rate-limits.ts, keyed by a keyed
 * hash of the client key (no address at rest), beside this instance's own count of every hit it takes.
 * The own count answers alone while the database does not, so each instance still holds the limit on
 * its own during an outage, and it answers a client it already knows to be over its quota without the
 * database, so a flood of 429s costs no database work and no connection.
 *
 * @module
 */
import { createKeyedHash, randomSecret } from '../../core/clients/keyed-hash.ts';
import type { Clock, Logger, MaybePromise, RateLimitHit, RateLimitStore } from '../../core/ports/ports.ts';
import { createMemoryRateLimitStore, type MemoryRateLimitStore } from '../memory/rate-limits.ts';
import type { SqlSession } from './client.ts';
import { type BatchOptions, createSqlRateLimitStore } from './rate-limits.ts';
import { secret } from './records.ts';

/** The name of the stored secret of rate-limit keys (distinct from the voter secret, so the two never match). */
export const RATE_LIMIT_SECRET = 'rate-limit-secret';

/** Settings of the shared store. */
export interface SharedRateLimitOptions {
  /** Batching of the shared counters. */
  batch?: BatchOptions;
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
  hashing: Promise<(key: string) => string> | null;
  hash: ((key: string) => string) | null;
  /** This instance's own count of every hit, aligned with the shared count whenever the database answers. */
  own: MemoryRateLimitStore | null;
  /** Whether the own count answers alone (the database did not answer). */
  local: boolean;
  nextProbe: number;
}

/**
 * The keyed hash of client keys that the shared tables store instead of addresses: HMAC-SHA-256 under
 * the stored rate-limit secret, loaded once into `state` (and kept there for every store sharing it).
 * Synchronous, from its cache, once loaded.
 */
export function clientKeyHash(db: SqlSession, state: SharedRateLimitState): (key: string) => MaybePromise<string> {
  const load = (): Promise<(key: string) => string> => (state.hashing ??= secret(db, RATE_LIMIT_SECRET, randomSecret)
    .then((value) => createKeyedHash(value))
    .then(
      (ready) => (state.hash = ready),
      (error: unknown) => {
        state.hashing = null;
        throw error;
      },
    ));
  return (key) => (state.hash ? state.hash(key) : load().then((ready) => ready(key)));
}

/** A fresh state: nothing loaded, counting on the database. */
export function createSharedRateLimitState(): SharedRateLimitState {
  return { hashing: null, hash: null, own: null, local: false, nextProbe: 0 };
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
 * the secret kept in the `secrets` table, and in this instance's own store (fixed windows on `clock`,
 * aligned with the shared window at each answer). A hit the own store counts past `quota` is answered from
 * it alone. When a batch fails (an error, or no answer within its deadline), its hits and every hit after
 * it are answered from the own store; one hit a second probes the database, and the first that gets an
 * answer switches back to the shared counters.
 *
 * @param db Where the shared counters and the secret live.
 * @param options Batching, clock, logging.
 */
export function createSharedRateLimitStore(db: SqlSession, options: SharedRateLimitOptions = {}): SharedRateLimitStore {
  const clock = options.clock ?? { now: () => Date.now() };
  const probeEveryMs = options.probeEveryMs ?? 1000;
  const counters = createSqlRateLimitStore(db, options.batch);
  const state = options.state ?? createSharedRateLimitState();
  const hashOf = clientKeyHash(db, state);

  /** The hit on the shared counters: no promise besides the batch's own once the hash is loaded and cached. */
  const shared = (key: string, windowMs: number): Promise<RateLimitHit> => {
    const hashed = hashOf(key);
    return typeof hashed === 'string' ? counters.hit(hashed, windowMs) : hashed.then((h) => counters.hit(h, windowMs));
  };

  const recovered = (key: string, hit: RateLimitHit, ownHit: RateLimitHit, own: MemoryRateLimitStore): RateLimitHit => {
    own.align(key, hit.count, hit.resetMs);
    if (!state.local) return hit;
    state.local = false;
    options.logger?.info('rate limit database answers again; counting on the shared counters');
    // The probe that ends an outage: the shared count lacks what this instance counted alone meanwhile.
    return ownHit.count > hit.count ? { count: ownHit.count, resetMs: hit.resetMs } : hit;
  };

  const fallBack = (error: unknown, ownHit: RateLimitHit): RateLimitHit => {
    if (!state.local) {
      state.local = true;
      state.nextProbe = clock.now() + probeEveryMs;
      options.logger?.warn('rate limit database unavailable; counting on this instance until it answers', {
        error: String(error),
      });
    }
    return ownHit;
  };

  return {
    get statements() {
      return counters.statements;
    },
    get local() {
      return state.local;
    },
    hit(key, windowMs, limit) {
      const own = (state.own ??= createMemoryRateLimitStore(clock));
      const ownHit = own.hit(key, windowMs);
      if (state.local) {
        // One hit a second probes the database, whoever makes it, so recovery never waits for a client under its quota.
        const now = clock.now();
        if (now < state.nextProbe) return ownHit;
        state.nextProbe = now + probeEveryMs;
      } else if (ownHit.count > limit) {
        // The shared count is at least this instance's own: a client over the policy's quota here is over it there.
        return ownHit;
      }
      return shared(key, windowMs).then(
        (hit) => recovered(key, hit, ownHit, own),
        (error: unknown) => fallBack(error, ownHit),
      );
    },
  };
}
