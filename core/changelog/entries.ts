/**
 * The changelog's entries (docs/releases.md "The changelog"): one per release live for everyone, highest
 * version first, each with the visible roadmap items it shipped; and, for `?installed=` (an early adopter's
 * "What's new"), one per release not yet at 100 % above the newest live for everyone, with the items that
 * name it. Both feeds (json-feed.ts, atom.ts) are written from these, so they always say the same.
 *
 * @module
 */
import type { RoadmapFeature } from '../ports/port-types.ts';
import { byVersionDescending } from '../releases/rollout-rule.ts';
import type { Release } from '../ports/release-store.ts';
import type { ShippedRelease } from '../releases/shipped.ts';
import type { ShippedFeature } from '../schemas/changelog.ts';

/** One release of the changelog. */
export interface ChangelogEntry {
  version: string;
  /** When it reached every client (ms); null for a release not at 100 % yet (listed only for `installed`). */
  reachedAt: number | null;
  /** When it was published (ms). */
  publishedAt: number;
  notesUrl: string | null;
  critical: boolean;
  features: ShippedFeature[];
}

/** Whether version `a` is above `b` in the order releases are served in. */
export const isAbove = (a: string, b: string): boolean => byVersionDescending({ version: a }, { version: b }) < 0;

/**
 * The entries of the changelog.
 *
 * @param shipped The releases live for everyone, with when they got there (core/releases/shipped.ts).
 * @param features Every roadmap feature; only visible ones are shown (a hidden one is not public).
 * @param since Only releases above this version; null for all.
 * @param staged Releases not at 100 % yet (stagedReleases): entries whose `reachedAt` is null.
 */
export function changelogEntries(
  shipped: readonly ShippedRelease[],
  features: readonly RoadmapFeature[],
  since: string | null,
  staged: readonly Release[] = [],
): ChangelogEntry[] {
  return [...shipped, ...staged.map((release) => ({ release, reachedAt: null }))]
    .filter(({ release }) => since === null || isAbove(release.version, since))
    .sort((a, b) => byVersionDescending(a.release, b.release))
    .map(({ release, reachedAt }) => ({
      version: release.version,
      reachedAt,
      publishedAt: release.publishedAt,
      notesUrl: release.notesUrl,
      critical: release.critical,
      features: features
        .filter((feature) => feature.visible && feature.release_version === release.version)
        .sort((a, b) => a.id - b.id)
        .map(({ id, title, description }) => ({ id, title, description })),
    }));
}

/** When an entry is dated: when it reached everyone, or when a release not at 100 % yet was published. */
export const entryTime = (entry: ChangelogEntry): number => entry.reachedAt ?? entry.publishedAt;

/** The newest time of the entries (the feeds' Last-Modified and Atom's updated), or null when there are none. */
export function lastChange(entries: readonly ChangelogEntry[]): number | null {
  return entries.length === 0 ? null : Math.max(...entries.map(entryTime));
}

/** An entry's first sentence: out for everyone, or (listed for `installed`) out for some users, you among them. */
export const entryLead = (entry: ChangelogEntry): string =>
  entry.reachedAt === null
    ? `Version ${entry.version} is out for some users, you among them: it is not out for everyone yet.`
    : `Version ${entry.version} is out for everyone.`;

/** An entry's title: the version, and whether it is a critical update. */
export const entryTitle = (entry: ChangelogEntry): string => `Version ${entry.version}${entry.critical ? ' (critical update)' : ''}`;

/** The words of an entry as plain text: what is new, and where the notes are. */
export function entryText(entry: ChangelogEntry): string {
  const lines = [entryLead(entry)];
  if (entry.features.length > 0) lines.push('', 'New:', ...entry.features.map((f) => `- ${f.title}${f.description ? `: ${f.description}` : ''}`));
  if (entry.notesUrl) lines.push('', `Release notes: ${entry.notesUrl}`);
  return lines.join('\n');
}
