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
 * Installs are distinct clients, not checks (issue 42): a client seen running a version today is
 * remembered here by its client key (in memory only) and written once, as the keyed hash of that key,
 * with the batch; storage keeps one sighting per client, version and day across instances and counts
 * only new ones. So a client that checks 120 times a minute, whatever its User-Agent says, adds one
 * install of one version a day.
 *
 * @module
 */
import { dayOf } from './budgets.ts';
import type { Clock, Logger } from '../ports/ports.ts';
import type { InstallSighting, UsageCount, UsageKind, UsageStore } from '../ports/store-ports.ts';

export type { UsageCount, UsageKind, UsageStore } from '../ports/store-ports.ts';

/** The kinds counted per request; installs are counted per client (`installed`). */
export type RequestKind = Exclude<UsageKind, 'installed'>;

export interface UsageTally {
  count(kind: RequestKind, release: string, source: string | null, platform: 'windows' | 'other'): void;
  /** Counts `clientKey` as running `release` today, once a day however often it is called. */
  installed(release: string, clientKey: string, platform: 'windows' | 'other'): void;
  /** Writes what is counted and not yet written. */
  flush(): Promise<void>;
  /**
   * The write under way (resolved when none is): a host whose storage lives only as long as a request
   * (the Worker closes the request's database client after its background work) waits for it.
   */
  writing(): Promise<void>;
  /** Every count since the process started, by label set, for the metrics (`installed`: checks, not clients). */
  totals(kind: UsageKind): readonly (readonly [{ release: string; source: string; platform: string }, number])[];
}

const FLUSH_EVERY_MS = 10_000;
/** Client keys remembered for today before the memory is cleared (storage still counts each client once). */
const SEEN_LIMIT = 200_000;
/** Sightings hashed and written in one statement (about 1.5 ms of hashing). */
const SIGHTINGS_PER_WRITE = 1000;

/** One turn of the event loop, so that requests are served between two slices of background work. */
const nextTurn = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

type Platform = 'windows' | 'other';

/** One label set's counts: since the process started, and since the last write (all of day `day`). */
interface Cell {
  readonly kind: UsageKind;
  readonly release: string;
  readonly source: string;
  readonly platform: Platform;
  total: number;
  pending: number;
}

export interface UsageTallyOptions {
  store: UsageStore;
  clock: Clock;
  logger: Logger;
  sources: readonly string[];
  /** The keyed hash a client key is stored as (the voter id). */
  clientHash(clientKey: string): string;
}

export function createUsageTally(options: UsageTallyOptions): UsageTally {
  const { store, clock, logger } = options;
  const known = new Set(options.sources);
  // A pair of cells (one per platform) by joined labels. Three nested maps looked up with no key built
  // earned under 3 % on bench:ab (issue 43), so the simpler form stays.
  const cells = new Map<string, Record<Platform, Cell>>();
  const every: Cell[] = [];
  /** The UTC day the pending counts belong to; a count of another day writes them first. */
  let pendingDay = dayOf(clock.now());
  let pendingCount = 0;
  let lastFlush = clock.now();
  let writing: Promise<void> = Promise.resolve();
  /** Today's client keys by version, and the sightings not yet written. */
  let seen = new Map<string, Set<string>>();
  let seenCount = 0;
  let sightings: { release: string; clientKey: string; platform: Platform }[] = [];

  const cellOf = (kind: UsageKind, release: string, source: string, platform: Platform): Cell => {
    const key = `${kind}\n${release}\n${source}`;
    let pair = cells.get(key);
    if (pair === undefined) {
      const made = (p: Platform): Cell => ({ kind, release, source, platform: p, total: 0, pending: 0 });
      cells.set(key, pair = { windows: made('windows'), other: made('other') });
      every.push(pair.windows, pair.other);
    }
    return pair[platform];
  };

  /**
   * Hashes and writes the sightings a slice at a time, with a turn of the event loop between slices: a
   * burst of new clients (100,000 in 10 s under load) would otherwise hold the loop for their hashes at once.
   */
  const writeSightings = (day: number, batch: typeof sightings) => async (): Promise<void> => {
    for (let start = 0; start < batch.length; start += SIGHTINGS_PER_WRITE) {
      if (start > 0) await nextTurn();
      const slice = batch.slice(start, start + SIGHTINGS_PER_WRITE);
      const hashed: InstallSighting[] = slice.map(({ release, clientKey, platform }) => ({
        day,
        release,
        clientHash: options.clientHash(clientKey),
        platform,
      }));
      try {
        await store.addSightings(hashed);
      } catch (error: unknown) {
        logger.warn('install sightings could not be written; they are lost', { sightings: slice.length, error: String(error) });
      }
    }
  };

  const flush = (): Promise<void> => {
    lastFlush = clock.now();
    if (sightings.length > 0) {
      writing = writing.then(writeSightings(pendingDay, sightings));
      sightings = [];
    }
    if (pendingCount === 0) return writing;
    const day = pendingDay;
    const counts: UsageCount[] = [];
    for (const cell of every) {
      if (cell.pending === 0) continue;
      const { kind, release, source, platform } = cell;
      counts.push({ day, kind, release, source, platform, count: cell.pending });
      cell.pending = 0;
    }
    pendingCount = 0;
    writing = writing.then(() =>
      store.add(counts).catch((error: unknown) => {
        logger.warn('usage counts could not be written; they are lost', { counts: counts.length, error: String(error) });
      })
    );
    return writing;
  };

  /** Writes what is pending when the UTC day changes, so each batch is of one day. */
  const today = (now: number) => {
    const day = dayOf(now);
    if (day === pendingDay) return;
    void flush();
    pendingDay = day;
    seen = new Map();
    seenCount = 0;
  };

  return {
    installed(release, clientKey, platform) {
      const now = clock.now();
      today(now);
      // The metric counts checks by installed version; storage counts clients.
      cellOf('installed', release, 'none', platform).total++;
      let keys = seen.get(release);
      if (keys === undefined) seen.set(release, keys = new Set());
      if (keys.has(clientKey)) return;
      if (seenCount >= SEEN_LIMIT) {
        seen = new Map([[release, keys = new Set()]]);
        seenCount = 0;
      }
      keys.add(clientKey);
      seenCount++;
      sightings.push({ release, clientKey, platform });
      if (now - lastFlush >= FLUSH_EVERY_MS) void flush();
    },
    count(kind, release, source, platform) {
      const label = source === null ? 'none' : known.has(source) ? source : 'other';
      const now = clock.now();
      today(now);
      const cell = cellOf(kind, release, label, platform);
      cell.total++;
      cell.pending++;
      pendingCount++;
      if (now - lastFlush >= FLUSH_EVERY_MS) void flush();
    },
    flush,
    writing: () => writing,
    totals(kind) {
      const found: [{ release: string; source: string; platform: string }, number][] = [];
      for (const { kind: k, release, source, platform, total } of every) {
        if (k === kind && total > 0) found.push([{ release, source, platform }, total]);
      }
      return found;
    },
  };
}
