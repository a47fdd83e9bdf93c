/**
 * The purges after a change of the update files (issue 55): once the change that stored a channel's new
 * files has committed, and this instance serves them, the caches are told to drop the channel's tag
 * (cache-tags.ts) through the purge port. Outside the change, and never waited for by it: a purge that
 * fails leaves the files correct (a cache serves the old timestamp until its max-age, which an app
 * accepts), so it is only retried, counted and logged.
 *
 * - Each attempt is started by `start` (the refresh after the change, then every refresh: once a second in
 *   the standalone server) and not waited for; it is aborted at its deadline.
 * - A failed attempt is tried again after 1 s, 5 s, 30 s, 2 min and 10 min (6 attempts, ~13 min), each
 *   failure counted (`cache_purge_failed`) and logged at warn; then it is given up, counted
 *   (`cache_purge_given_up`) and logged at error.
 * - One that worked is made once more `PURGE_AGAIN_AFTER_MS` after the change: another instance serves the
 *   old file until its own refresh finds the new one, and a cache that asked it meanwhile kept that copy.
 * - A new request for a channel replaces the one waiting: both purge the same tag.
 *
 * @module
 */
import type { CachePurge } from '../ports/cache-purge.ts';
import type { AppEvent, Clock, Logger } from '../ports/ports.ts';
import { channelTag } from './cache-tags.ts';

/** The waits after each failed attempt: 1 s, 5 s, 30 s, 2 min, 10 min (6 attempts over ~13 min). */
export const PURGE_RETRY_SCHEDULE_MS: readonly number[] = [1_000, 5_000, 30_000, 120_000, 600_000];

/** The most one attempt may take. */
export const PURGE_DEADLINE_MS = 10_000;

/** When the purge is made once more after the change: other instances read new files within a second or two. */
export const PURGE_AGAIN_AFTER_MS = 2_000;

export interface CachePurges {
  /** The purge port's name. */
  readonly name: string;
  /** A change stored new files of `channel`: its purge is due at the next `start`. */
  request(channel: string): void;
  /** Starts the attempts that are due; never waits for them. */
  start(): void;
  /** Resolves when every attempt under way is done. */
  settled(): Promise<void>;
}

export interface CachePurgesOptions {
  port: CachePurge;
  clock: Clock;
  logger: Logger;
  count(event: AppEvent): void;
  /** The signal that ends an attempt after `ms`: `AbortSignal.timeout` by default. */
  abortAfter?: (ms: number) => AbortSignal;
}

interface Due {
  /** When the change asked for it. */
  askedAt: number;
  dueAt: number;
  /** Failed attempts so far (of this round). */
  failures: number;
  /** Whether the purge made once more is still to come. */
  again: boolean;
}

/** Creates the purges over a purge port. */
export function createCachePurges(options: CachePurgesOptions): CachePurges {
  const { port, clock, logger } = options;
  const abortAfter = options.abortAfter ?? ((ms: number) => AbortSignal.timeout(ms));
  const due = new Map<string, Due>();
  const running = new Map<string, Promise<void>>();

  const attempt = async (channel: string, job: Due): Promise<void> => {
    const tags = [channelTag(channel)];
    const fields = { channel, tags, purge: port.name, attempt: job.failures + 1 };
    try {
      await port.purge(tags, abortAfter(PURGE_DEADLINE_MS));
    } catch (error) {
      options.count('cache_purge_failed');
      const reason = error instanceof Error ? error.message : String(error);
      // A newer request replaced this one: it is tried on its own.
      if (due.get(channel) !== job) return logger.warn('cache purge failed; a newer one is due', { ...fields, error: reason });
      const wait = PURGE_RETRY_SCHEDULE_MS[job.failures];
      if (wait === undefined) {
        due.delete(channel);
        options.count('cache_purge_given_up');
        logger.error('cache purge given up: caches keep the old files until their max-age (or their own TTL)', { ...fields, error: reason });
        return;
      }
      job.failures += 1;
      job.dueAt = clock.now() + wait;
      logger.warn('cache purge failed, will retry', { ...fields, error: reason, nextAttemptAt: new Date(job.dueAt).toISOString() });
      return;
    }
    logger.info('cache purged', fields);
    if (due.get(channel) !== job) return;
    if (job.again) due.set(channel, { askedAt: job.askedAt, dueAt: job.askedAt + PURGE_AGAIN_AFTER_MS, failures: 0, again: false });
    else due.delete(channel);
  };

  return {
    name: port.name,
    request(channel) {
      const now = clock.now();
      due.set(channel, { askedAt: now, dueAt: now, failures: 0, again: true });
    },
    start() {
      const now = clock.now();
      for (const [channel, job] of due) {
        if (job.dueAt > now || running.has(channel)) continue;
        const done = attempt(channel, job)
          .catch((error: unknown) => logger.error('cache purge attempt failed unexpectedly', { channel, error: String(error) }))
          .finally(() => running.delete(channel));
        running.set(channel, done);
      }
    },
    async settled() {
      while (running.size > 0) await Promise.all(running.values());
    },
  };
}
