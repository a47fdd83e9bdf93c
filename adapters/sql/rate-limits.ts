/**
 * Fixed-window rate-limit counters in SQL, shared exactly by every instance on one database, timed by
 * the database clock, with concurrent hits batched into one statement (group commit).
 *
 * @module
 */
import type { RateLimitHit, RateLimitStore } from '../../core/ports/ports.ts';
import { createBatcher } from './batch.ts';
import type { SqlSession } from './client.ts';

/**
 * Counts a batch: each distinct key once with its number of hits, in key order so that two instances'
 * batches lock shared rows in the same order (no deadlocks). A window that has ended starts afresh.
 */
const HIT = `
insert into rate_limits as r (key, count, reset_at)
select key, count(*)::int, now() + make_interval(secs => $2::float8 / 1000)
from unnest($1::text[]) as key
group by key
order by key
on conflict (key) do update set
  count = case when r.reset_at > now() then r.count + excluded.count else excluded.count end,
  reset_at = case when r.reset_at > now() then r.reset_at else excluded.reset_at end
returning key, count, (extract(epoch from (reset_at - now())) * 1000)::float8 as reset_ms`;

/** Settings of the batching. */
export interface BatchOptions {
  /** How long the first hit of a batch waits for company while no statement is running. */
  collectMs?: number;
  /** The most hits in one statement. */
  maxBatch?: number;
  /**
   * The most statements running at once; 1 by default. With 2, hits that arrive while one runs go in the
   * next I/O turn on another connection, instead of waiting for the first to return.
   */
  maxInFlight?: number;
  /** How long a batch may take before its hits are rejected (the limiter then fails open). */
  timeoutMs?: number;
}

/** The store, plus what tests and the benchmark look at. */
export interface SqlRateLimitStore extends RateLimitStore {
  hit(key: string, windowMs: number): Promise<RateLimitHit>;
  /** Statements run so far. */
  readonly statements: number;
}

interface Hit {
  key: string;
  windowMs: number;
}

/**
 * Creates the store, on the group-commit batcher of batch.ts: while `maxInFlight` statements run, new
 * hits queue; when one returns they go together in the next one, one window length per statement. A
 * lone hit waits `collectMs` first. The k-th hit of a key that occurs n times in a batch whose statement
 * returns count c gets c - n + k: the same numbers as n statements one after another.
 *
 * @param db Where the counters live.
 * @param options Batching settings.
 */
export function createSqlRateLimitStore(db: SqlSession, options: BatchOptions = {}): SqlRateLimitStore {
  const count = async (hits: Hit[]): Promise<RateLimitHit[]> => {
    const rows = await db.query<{ key: string; count: number; reset_ms: number }>(HIT, [hits.map((h) => h.key), hits[0]!.windowMs]);
    const totals = new Map(rows.map((row) => [row.key, row]));
    const remaining = new Map<string, number>();
    for (const h of hits) remaining.set(h.key, (remaining.get(h.key) ?? 0) + 1);
    return hits.map((h) => {
      const row = totals.get(h.key);
      if (!row) throw new Error('rate-limit statement returned no row for a key');
      const after = remaining.get(h.key)! - 1;
      remaining.set(h.key, after);
      return { count: row.count - after, resetMs: Math.max(0, row.reset_ms) };
    });
  };
  const batcher = createBatcher(count, {
    collectMs: options.collectMs ?? 1,
    maxBatch: options.maxBatch ?? 2000,
    maxInFlight: options.maxInFlight ?? 1,
    timeoutMs: options.timeoutMs ?? 300,
    batchKey: (h) => h.windowMs,
  });
  return {
    get statements() {
      return batcher.statements;
    },
    hit: (key, windowMs) => batcher({ key, windowMs }),
  };
}
