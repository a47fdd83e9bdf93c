/**
 * Each release's short summary in the update files (issue 54): the titles of the visible roadmap items
 * that name its version, joined, as the targets' `custom.summary` carries them (plain text, cut by the
 * feed). Read from storage at most once a minute, and at once after a change this app committed, so the
 * publisher's check every second costs no read.
 *
 * @module
 */
import type { CommittedChanges } from '../ports/change.ts';
import type { Clock } from '../ports/ports.ts';
import type { FeatureReads } from '../ports/store-ports.ts';

/** How long summaries are kept before they are read again, when nothing changed here. */
export const SUMMARY_READ_EVERY_MS = 60_000;

export interface ReleaseSummaries {
  /** A release's summary as last read, or null when no visible item names it. */
  summaryOf(version: string): string | null;
  /** Reads the items again when a minute passed or this app committed a change since the last read. */
  refresh(): Promise<void>;
}

/** Creates the summaries, empty until the first refresh. */
export function createReleaseSummaries(features: FeatureReads, clock: Clock, changes: CommittedChanges): ReleaseSummaries {
  let byVersion = new Map<string, string>();
  let readAt = -Infinity;
  let readAfter = -1;
  return {
    summaryOf: (version) => byVersion.get(version) ?? null,
    async refresh() {
      const now = clock.now();
      if (now - readAt < SUMMARY_READ_EVERY_MS && changes.count() === readAfter) return;
      readAfter = changes.count();
      readAt = now;
      const titles = new Map<string, string[]>();
      for (const feature of await features.list()) {
        if (!feature.visible || feature.release_version === null) continue;
        titles.set(feature.release_version, [...(titles.get(feature.release_version) ?? []), feature.title]);
      }
      byVersion = new Map([...titles].map(([version, list]) => [version, list.join('; ')]));
    },
  };
}
