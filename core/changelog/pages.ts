/**
 * The changelog's pages (docs/releases.md "Pages"): at most 50 entries each, highest version first. A page is
 * named by two versions, `since` (only entries above it) and `before` (only entries below it, the cursor of
 * the next page), each normalised onto the entries' own versions: `since` to the highest entry at or below it,
 * `before` to the lowest entry at or above it (null when there is none). A normalised pair selects exactly
 * the entries the given pair does, so a page's body depends on the normalised pair alone, and any number of
 * distinct values given maps onto at most (entries + 1)² pages, each of at most 50 entries.
 *
 * @module
 */
import { CHANGELOG_PAGE_SIZE } from '../schemas/changelog.ts';
import { type ChangelogEntry, isAbove } from './entries.ts';

export { CHANGELOG_PAGE_SIZE };

/** What a request asks of the changelog: its `since` and `before`, null when absent. */
export interface PageQuery {
  since: string | null;
  before: string | null;
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
  const { since, before } = query;
  const atOrBelow = since === null ? undefined : all.find((entry) => !isAbove(entry.version, since));
  let atOrAbove: string | null = null;
  if (before !== null) {
    for (const entry of all) {
      if (isAbove(before, entry.version)) break;
      atOrAbove = entry.version;
    }
  }
  return { since: atOrBelow?.version ?? null, before: atOrAbove };
}

/** The cache key of a normalised query. */
export const pageKey = ({ since, before }: PageQuery): string => `${since ?? ''} ${before ?? ''}`;

/** The query string of a page (without `?`); empty for the first page of the whole changelog. */
export function pageQueryString({ since, before }: PageQuery): string {
  const query = new URLSearchParams();
  if (since !== null) query.set('since', since);
  if (before !== null) query.set('before', before);
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
  const { since, before } = query;
  const window = all.filter((entry) => (since === null || isAbove(entry.version, since)) && (before === null || isAbove(before, entry.version)));
  const entries = window.slice(0, size);
  return { since, before, entries, next: window.length > size ? entries[entries.length - 1]!.version : null };
}
