/**
 * The changelog's pages (docs/releases.md "Pages"): at most 50 entries each, highest version first. A page is
 * named by two versions, `since` (only entries above it) and `before` (only entries below it, the cursor of
 * the next page), each normalised onto the entries' own versions: `since` to the highest entry at or below it,
 * `before` to the lowest entry at or above it (null when there is none). A normalised pair selects exactly
 * the entries the given pair does, so a page's body depends on the normalised pair alone, and any number of
 * distinct values given maps onto at most (entries + 1)² pages, each of at most 50 entries. A third version,
 * `installed`, lets in the entries not at 100 % yet at or below it; it is normalised onto those entries (the
 * highest at or below it, null when none: then the page is the one without it).
 *
 * @module
 */
import { CHANGELOG_PAGE_SIZE } from '../schemas/changelog.ts';
import { type ChangelogEntry, isAbove } from './entries.ts';

export { CHANGELOG_PAGE_SIZE };

/** What a request asks of the changelog: its `since`, `before` and `installed`, null when absent. */
export interface PageQuery {
  since: string | null;
  before: string | null;
  /** The version the app runs: entries not at 100 % yet at or below it are listed too. */
  installed: string | null;
}

/** One page: its query as normalised, its entries and the cursor of the next page (null on the last). */
export interface ChangelogPage extends PageQuery {
  entries: readonly ChangelogEntry[];
  /** The `before` of the next page: the version of this page's last entry, when more entries follow it. */
  next: string | null;
}

/**
 * The query normalised onto the entries.
 *
 * @param all Every entry, highest version first.
 * @param query The `since` and `before` given.
 * @returns The `since` as the highest entry at or below it and the `before` as the lowest entry at or above it;
 *   null for a bound no entry reaches.
 */
export function normalisePage(all: readonly ChangelogEntry[], query: PageQuery): PageQuery {
  const installed = query.installed === null ? undefined : all.find((entry) => entry.reachedAt === null && !isAbove(entry.version, query.installed!));
  const visible = visibleEntries(all, installed?.version ?? null);
  const { since, before } = query;
  const atOrBelow = since === null ? undefined : visible.find((entry) => !isAbove(entry.version, since));
  let atOrAbove: string | null = null;
  if (before !== null) {
    for (const entry of visible) {
      if (isAbove(before, entry.version)) break;
      atOrAbove = entry.version;
    }
  }
  return { since: atOrBelow?.version ?? null, before: atOrAbove, installed: installed?.version ?? null };
}

/** The entries a query sees: those live for everyone, and those not at 100 % yet at or below `installed`. */
function visibleEntries(all: readonly ChangelogEntry[], installed: string | null): ChangelogEntry[] {
  return all.filter((entry) => entry.reachedAt !== null || (installed !== null && !isAbove(entry.version, installed)));
}

/** The cache key of a normalised query. */
export const pageKey = ({ since, before, installed }: PageQuery): string => `${since ?? ''} ${before ?? ''} ${installed ?? ''}`;

/** The query string of a page (without `?`); empty for the first page of the whole changelog. */
export function pageQueryString({ since, before, installed }: PageQuery): string {
  const query = new URLSearchParams();
  if (since !== null) query.set('since', since);
  if (before !== null) query.set('before', before);
  if (installed !== null) query.set('installed', installed);
  return query.toString();
}

/**
 * The page of a normalised query.
 *
 * @param all Every entry, highest version first.
 * @param query The query, normalised by `normalisePage`.
 * @param size The most entries of a page.
 */
export function changelogPage(all: readonly ChangelogEntry[], query: PageQuery, size: number = CHANGELOG_PAGE_SIZE): ChangelogPage {
  const { since, before, installed } = query;
  const window = visibleEntries(all, installed).filter((entry) =>
    (since === null || isAbove(entry.version, since)) && (before === null || isAbove(before, entry.version))
  );
  const entries = window.slice(0, size);
  return { since, before, installed, entries, next: window.length > size ? entries[entries.length - 1]!.version : null };
}
