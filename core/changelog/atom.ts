/**
 * The changelog as Atom (RFC 4287): `application/atom+xml`, the same entries as the JSON Feed.
 *
 * @module
 */
import { escapeXmlText } from '../formats/xml-text.ts';
import { entryTime, entryTitle, lastChange } from './entries.ts';
import { entryHtml, entryId, type FeedHead, nextPageUrl, pageUrl } from './json-feed.ts';
import type { ChangelogPage } from './pages.ts';

/** Text for XML content or a quoted attribute, without the characters XML 1.0 cannot carry. */
const xml = escapeXmlText;

/**
 * The Atom document of a page; `updated` is the newest entry's time (the epoch when there is none). A page with
 * more after it links to the next one (`rel="next"`, RFC 5005 section 3); `self` is the page's own address.
 */
export function atomFeed(head: FeedHead, page: ChangelogPage): string {
  const { entries } = page;
  const next = nextPageUrl(head.feedUrl, page);
  const iso = (ms: number) => new Date(ms).toISOString();
  const lines = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en">',
    `  <id>${xml(head.feedUrl)}</id>`,
    `  <title>${xml(`${head.product} changelog`)}</title>`,
    `  <subtitle>${xml(`The releases of ${head.product} that reached every user, with the roadmap items each shipped.`)}</subtitle>`,
    `  <updated>${iso(lastChange(entries) ?? 0)}</updated>`,
    `  <author><name>${xml(head.product)}</name></author>`,
    `  <link rel="self" type="application/atom+xml" href="${xml(pageUrl(head.feedUrl, page))}"/>`,
    `  <link rel="alternate" type="application/feed+json" href="${xml(pageUrl(head.jsonFeedUrl, page))}"/>`,
    ...(next === null ? [] : [`  <link rel="next" type="application/atom+xml" href="${xml(next)}"/>`]),
  ];
  for (const entry of entries) {
    lines.push(
      '  <entry>',
      `    <id>${xml(entryId(head, entry))}</id>`,
      `    <title>${xml(entryTitle(entry))}</title>`,
      `    <published>${iso(entryTime(entry))}</published>`,
      `    <updated>${iso(entryTime(entry))}</updated>`,
      ...(entry.notesUrl ? [`    <link rel="alternate" href="${xml(entry.notesUrl)}"/>`] : []),
      ...(entry.critical ? ['    <category term="critical"/>'] : []),
      `    <content type="html">${xml(entryHtml(entry))}</content>`,
      '  </entry>',
    );
  }
  lines.push('</feed>', '');
  return lines.join('\n');
}
