/**
 * Fixed-window rate-limit counters in SQL, shared exactly by every instance on one database, timed by
 * the database clock, with concurrent hits batched into one statement (group commit).
 *
 * @module
 */
import type { RateLimitHit, RateLimitStore } from '../../core/ports.ts';
import { afterIo } from './batch.ts';
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

interface Waiting {
  key: string;
  windowMs: number;
  resolve(hit: RateLimitHit): void;
  reject(error: unknown): void;
}

/** The store, plus what tests and the benchmark look at. */
export interface SqlRateLimitStore extends RateLimitStore {
  hit(key: string, windowMs: number): Promise<RateLimitHit>;
  /** Statements run so far. */
  readonly statements: number;
}

/**
 * Creates the store. While `maxInFlight` statements run, new hits queue; when one returns they go
 * together in the next one. A lone hit waits `collectMs` first. The k-th hit of a key that occurs n times
 * in a batch whose statement returns count c gets c - n + k: the same numbers as n statements one after
 * another.
 *
 * @param db Where the counters live.
 * @param options Batching settings.
 */
export function createSqlRateLimitStore(db: SqlSession, options: BatchOptions = {}): SqlRateLimitStore {
  const collectMs = options.collectMs ?? 1;
  const maxBatch = options.maxBatch ?? 2000;
  const timeoutMs = options.timeoutMs ?? 300;
  const maxInFlight = options.maxInFlight ?? 1;
  let queue: Waiting[] = [];
  /** Statements running now. */
  let running = 0;
  /** A flush is scheduled (after `collectMs`, or after the I/O turn while another statement runs). */
  let scheduled = false;
  let statements = 0;

  /** The next batch: at once after this I/O turn while a statement runs, else after `collectMs`. */
  const schedule = (): void => {
    if (scheduled || running >= maxInFlight || queue.length === 0) return;
    scheduled = true;
    if (running > 0) afterIo(flush);
    else setTimeout(flush, collectMs);
  };

  const flush = (): void => {
    scheduled = false;
    if (running >= maxInFlight || queue.length === 0) return;
    // One window length per statement; hits with another length wait for the next one.
    const windowMs = queue[0]!.windowMs;
    const batch: Waiting[] = [];
    const rest: Waiting[] = [];
    for (const waiting of queue) (waiting.windowMs === windowMs && batch.length < maxBatch ? batch : rest).push(waiting);
    queue = rest;
    running++;
    statements++;
    let settled = false;
    const done = () => {
      if (settled) return false;
      settled = true;
      clearTimeout(deadline);
      running--;
      if (queue.length > 0 && !scheduled) flush();
      return true;
    };
    const deadline = setTimeout(() => {
      if (done()) for (const w of batch) w.reject(new Error(`rate-limit statement took over ${timeoutMs} ms`));
    }, timeoutMs);
    db.query<{ key: string; count: number; reset_ms: number }>(HIT, [batch.map((w) => w.key), windowMs]).then(
      (rows) => {
        if (!done()) return;
        const totals = new Map(rows.map((row) => [row.key, row]));
        const remaining = new Map<string, number>();
        for (const w of batch) remaining.set(w.key, (remaining.get(w.key) ?? 0) + 1);
        for (const w of batch) {
          const row = totals.get(w.key);
          const after = remaining.get(w.key)! - 1;
          remaining.set(w.key, after);
          if (row) w.resolve({ count: row.count - after, resetMs: Math.max(0, row.reset_ms) });
          else w.reject(new Error('rate-limit statement returned no row for a key'));
        }
      },
      (error: unknown) => {
        if (done()) for (const w of batch) w.reject(error);
      },
    );
    schedule();
  };

  return {
    get statements() {
      return statements;
    },
    hit(key, windowMs) {
      return new Promise<RateLimitHit>((resolve, reject) => {
        queue.push({ key, windowMs, resolve, reject });
        schedule();
      });
    },
  };
}
