/**
 * Downloads and update checks, counted by UTC day, release, source and platform: in memory on the request
 * path (a map increment), written to storage in one batch at most every 10 s, from the request path
 * itself (no timer, so it works the same on every runtime; the Worker keeps the request's database
 * client open for the write, `writing`) and when the app drains. A process killed
 * between two writes loses at most those seconds of counts: these are statistics, not records.
 *
 * Labels are bounded: the source is kept only when it is on the operator's list (`other` otherwise,
 * `none` when absent), so no client can add rows or metric series.
 *
 * @module
 */
import { dayOf } from './budgets.ts';
import type { Clock, Logger } from '../ports/ports.ts';
import type { UsageCount, UsageKind, UsageStore } from '../ports/store-ports.ts';

export type { UsageCount, UsageKind, UsageStore } from '../ports/store-ports.ts';

export interface UsageTally {
  count(kind: UsageKind, release: string, source: string | null, platform: 'windows' | 'other'): void;
  /** Writes what is counted and not yet written. */
  flush(): Promise<void>;
  /**
   * The write under way (resolved when none is): a host whose storage lives only as long as a request
   * (the Worker closes the request's database client after its background work) waits for it.
   */
  writing(): Promise<void>;
  /** Every count since the process started, by label set, for the metrics. */
  totals(kind: UsageKind): readonly (readonly [{ release: string; source: string; platform: string }, number])[];
}

const FLUSH_EVERY_MS = 10_000;
const SEPARATOR = '\u0000';

export function createUsageTally(options: { store: UsageStore; clock: Clock; logger: Logger; sources: readonly string[] }): UsageTally {
  const { store, clock, logger } = options;
  const known = new Set(options.sources);
  let pending = new Map<string, number>();
  const totals = new Map<string, number>();
  let lastFlush = clock.now();
  let writing: Promise<void> = Promise.resolve();

  const flush = (): Promise<void> => {
    if (pending.size === 0) return writing;
    const batch = pending;
    pending = new Map();
    lastFlush = clock.now();
    const counts = [...batch].map(([key, count]) => {
      const [day, kind, release, source, platform] = key.split(SEPARATOR) as [string, UsageKind, string, string, 'windows' | 'other'];
      return { day: Number(day), kind, release, source, platform, count };
    });
    writing = writing.then(() =>
      store.add(counts).catch((error: unknown) => {
        logger.warn('usage counts could not be written; they are lost', { counts: counts.length, error: String(error) });
      }),
    );
    return writing;
  };

  return {
    count(kind, release, source, platform) {
      const label = source === null ? 'none' : known.has(source) ? source : 'other';
      const now = clock.now();
      const labels = `${kind}${SEPARATOR}${release}${SEPARATOR}${label}${SEPARATOR}${platform}`;
      const key = `${dayOf(now)}${SEPARATOR}${labels}`;
      pending.set(key, (pending.get(key) ?? 0) + 1);
      totals.set(labels, (totals.get(labels) ?? 0) + 1);
      if (now - lastFlush >= FLUSH_EVERY_MS) void flush();
    },
    flush,
    writing: () => writing,
    totals(kind) {
      const found: [{ release: string; source: string; platform: string }, number][] = [];
      for (const [labels, count] of totals) {
        const [k, release, source, platform] = labels.split(SEPARATOR) as [UsageKind, string, string, string];
        if (k === kind) found.push([{ release, source, platform }, count]);
      }
      return found;
    },
  };
}
