/**
 * The changelog as a JSON Feed 1.1 (jsonfeed.org/version/1.1): `application/feed+json`.
 *
 * @module
 */
import { escapeHtmlText } from '../formats/html-text.ts';
import type { ChangelogFeed } from '../schemas/changelog.ts';
import { type ChangelogEntry, entryLead, entryText, entryTime, entryTitle } from './entries.ts';
import { type ChangelogPage, pageQueryString } from './pages.ts';

/** What the feeds say of themselves. */
export interface FeedHead {
  /** The product's display name. */
  product: string;
  /** The feed's own address (the JSON Feed or the Atom one). */
  feedUrl: string;
  /** The JSON Feed's address: the base of every item id, the same in both feeds. */
  jsonFeedUrl: string;
}

/** The address of a page of the feed at `feedUrl`: the feed's own address for the first page of everything. */
export function pageUrl(feedUrl: string, page: Pick<ChangelogPage, 'since' | 'before' | 'installed'>): string {
  const query = pageQueryString(page);
  return query === '' ? feedUrl : `${feedUrl}?${query}`;
}

/** The address of the page after `page`, or null when it is the last. */
export const nextPageUrl = (feedUrl: string, page: ChangelogPage): string | null =>
  page.next === null ? null : pageUrl(feedUrl, { since: page.since, before: page.next, installed: page.installed });

/** An entry's id, the same in both feeds and for ever: the JSON Feed's address and the version. */
export const entryId = (head: FeedHead, entry: ChangelogEntry): string => `${head.jsonFeedUrl}#v${entry.version}`;

/** An entry's words as HTML. */
export function entryHtml(entry: ChangelogEntry): string {
  const parts = [`<p>${escapeHtmlText(entryLead(entry))}</p>`];
  if (entry.features.length > 0) {
    const items = entry.features.map((f) => `<li><strong>${escapeHtmlText(f.title)}</strong>${f.description ? `: ${escapeHtmlText(f.description)}` : ''}</li>`);
    parts.push(`<p>New:</p><ul>${items.join('')}</ul>`);
  }
  if (entry.notesUrl) parts.push(`<p><a href="${escapeHtmlText(entry.notesUrl)}">Release notes</a></p>`);
  return parts.join('');
}

/** The JSON Feed of a page; `next_url` names the next page when there is one. */
export function jsonFeed(head: FeedHead, page: ChangelogPage): ChangelogFeed {
  const next = nextPageUrl(head.feedUrl, page);
  return {
    version: 'https://jsonfeed.org/version/1.1',
    title: `${head.product} changelog`,
    description: `The releases of ${head.product} that reached every user, with the roadmap items each shipped.`,
    feed_url: head.feedUrl,
    ...(next === null ? {} : { next_url: next }),
    language: 'en',
    items: page.entries.map((entry) => ({
      id: entryId(head, entry),
      ...(entry.notesUrl ? { url: entry.notesUrl } : {}),
      title: entryTitle(entry),
      content_text: entryText(entry),
      content_html: entryHtml(entry),
      date_published: new Date(entryTime(entry)).toISOString(),
      ...(entry.critical ? { tags: ['critical'] } : {}),
      _release: {
        version: entry.version,
        reached_everyone_at: entry.reachedAt === null ? null : new Date(entry.reachedAt).toISOString(),
        notes_url: entry.notesUrl,
        critical: entry.critical,
        features: entry.features.map((f) => ({ ...f })),
      },
    })),
  };
}
