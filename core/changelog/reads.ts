/**
 * The changelog's entries as both feeds read them: from storage at most once a second per app, the rule of
 * the release view (core/releases/release-view.ts: every instance serves a change within a second of it).
 * Requests that find no fresh read share the one under way. A change committed through this app
 * (`CommittedChanges`) makes the next request read again at once, so it is served with no wait; a change
 * made by another instance is served once the last read is a second old. A failed read is not kept: the
 * request that asked for it gets its error, and the next request reads again.
 *
 * @module
 */
import type { CommittedChanges } from '../ports/change.ts';
import type { Clock, Storage } from '../ports/ports.ts';
import { shippedReleases } from '../releases/shipped.ts';
import { stagedReleases } from './staged.ts';
import { changelogEntries, type ChangelogEntry } from './entries.ts';

/** The oldest read a feed is answered from. */
const MAX_AGE_MS = 1000;

/** What the reads are made of. */
export interface ChangelogReadPorts {
  storage: Pick<Storage, 'releases' | 'features' | 'shipping'>;
  clock: Clock;
  changes: CommittedChanges;
}

/** The entries of the changelog, as last read. */
export interface ChangelogReads {
  /**
   * Every entry (no `since`), those not at 100 % yet included, read less than a second ago and after this
   * app's last change. The same array while the entries do not change, so what is made from it can be kept by it.
   */
  current(): Promise<readonly ChangelogEntry[]>;
}

/** One read: begun when (clock and change count), in which order, and its entries once read. */
interface Read<T> {
  startedAt: number;
  changes: number;
  order: number;
  value: T;
}

/** Creates the reads. */
export function createChangelogReads({ storage, clock, changes }: ChangelogReadPorts): ChangelogReads {
  let kept: Read<{ entries: readonly ChangelogEntry[]; text: string }> | null = null;
  let reading: Read<Promise<readonly ChangelogEntry[]>> | null = null;
  let reads = 0;
  const fresh = (read: Read<unknown>, now: number) => read.changes === changes.count() && now >= read.startedAt && now - read.startedAt < MAX_AGE_MS;

  const read = (startedAt: number): Promise<readonly ChangelogEntry[]> => {
    const begun = { startedAt, changes: changes.count(), order: ++reads };
    const value = readEntries().then((entries) => {
      // Entries equal to the kept ones keep their array, so the bodies made from it stay kept.
      const text = JSON.stringify(entries);
      const served = kept !== null && kept.value.text === text ? kept.value.entries : entries;
      if (kept === null || begun.order > kept.order) kept = { ...begun, value: { entries: served, text } };
      return served;
    });
    const under = { ...begun, value };
    reading = under;
    const done = () => {
      if (reading === under) reading = null;
    };
    value.then(done, done);
    return value;
  };

  async function readEntries(): Promise<ChangelogEntry[]> {
    const [releases, features] = await Promise.all([storage.releases.listReleases(), storage.features.list()]);
    // A release newly live for everyone gets its time recorded here (first write wins).
    const now = clock.now();
    const shipped = await shippedReleases(releases, storage.shipping, now);
    return changelogEntries(shipped, features, null, stagedReleases(releases, shipped, now));
  }

  return {
    current() {
      const now = clock.now();
      if (kept !== null && fresh(kept, now)) return Promise.resolve(kept.value.entries);
      if (reading !== null && fresh(reading, now)) return reading.value;
      return read(now);
    },
  };
}
