/**
 * The changelog as a JSON Feed 1.1 (GET /api/v1/changelog, an addition to the spec): one item per release
 * live for everyone, with the roadmap items it shipped in the `_release` extension (JSON Feed's rule for
 * extensions: a key that starts with an underscore); with `installed=`, also the releases at or below it not
 * yet at 100 %, their `reached_everyone_at` null.
 *
 * @module
 */
import * as v from 'valibot';
import type { Assert, Equal } from './exact.ts';
import { IsoTime } from './iso-time.ts';
import { Link } from './link.ts';
import { RELEASE_VERSION, VersionString } from './version.ts';

/** A roadmap item a release shipped, as the changelog shows it. */
export interface ShippedFeature {
  id: number;
  title: string;
  description: string;
}

/** What the desktop app and the website read of one release: the `_release` extension of an item. */
export interface ChangelogRelease {
  version: string;
  /** When it reached every client (ISO 8601); null for a release not at 100 % yet (listed for `installed`). */
  reached_everyone_at: string | null;
  /** Its release notes address, or null. */
  notes_url: string | null;
  /** Whether the app installs it without asking. */
  critical: boolean;
  /** The visible roadmap items whose release_version is this version, in id order. */
  features: ShippedFeature[];
}

/** One item of the feed: one release. */
export interface ChangelogItem {
  id: string;
  url?: string | undefined;
  title: string;
  content_text: string;
  content_html: string;
  date_published: string;
  tags?: string[] | undefined;
  _release: ChangelogRelease;
}

/** The changelog feed (JSON Feed 1.1). */
export interface ChangelogFeed {
  version: 'https://jsonfeed.org/version/1.1';
  title: string;
  description: string;
  feed_url: string;
  /** The next page (`?before=` the last item's version), when more releases follow this page's 50. */
  next_url?: string | undefined;
  language: string;
  items: ChangelogItem[];
}

/** The most items of a page of the changelog (core/changelog/pages.ts). */
export const CHANGELOG_PAGE_SIZE = 50;

const shippedFeature = v.strictObject({
  id: v.pipe(v.number(), v.integer(), v.minValue(1)),
  title: v.string(),
  description: v.string(),
});
const release = v.strictObject({
  version: VersionString,
  reached_everyone_at: v.pipe(
    v.nullable(IsoTime),
    v.description(
      'When the release reached every client: its percent in force became 100. Null for a release not at 100 % yet, which ' +
        'only installed= lists (an early adopter has it).',
    ),
  ),
  notes_url: v.nullable(Link),
  critical: v.boolean(),
  features: v.pipe(v.array(shippedFeature), v.description('The visible roadmap items whose release_version is this version, in id order.')),
});
const item = v.strictObject({
  id: v.string(),
  url: v.optional(Link),
  title: v.string(),
  content_text: v.string(),
  content_html: v.string(),
  date_published: v.pipe(IsoTime, v.description('When the release reached every client; for one not at 100 % yet, when it was published.')),
  tags: v.optional(v.array(v.string())),
  _release: release,
});
const feed = v.strictObject({
  version: v.literal('https://jsonfeed.org/version/1.1'),
  title: v.string(),
  description: v.string(),
  feed_url: Link,
  next_url: v.optional(
    v.pipe(
      Link,
      v.description(
        'The next page: the same since and before=<the version of the last item here>. Present only when more releases ' +
          'follow this page.',
      ),
    ),
  ),
  language: v.string(),
  items: v.pipe(
    v.array(item),
    v.maxLength(CHANGELOG_PAGE_SIZE),
    v.description(
      `One item per release live for everyone (and, with installed=, per release at or below it not at 100 % yet), highest version ` +
        `first: at most ${CHANGELOG_PAGE_SIZE} a page.`,
    ),
  ),
});
type _Feature = Assert<Equal<v.InferOutput<typeof shippedFeature>, ShippedFeature>>;
type _Release = Assert<Equal<v.InferOutput<typeof release>, ChangelogRelease>>;
type _Item = Assert<Equal<v.InferOutput<typeof item>, ChangelogItem>>;
type _Feed = Assert<Equal<v.InferOutput<typeof feed>, ChangelogFeed>>;
export const ChangelogFeedSchema: v.GenericSchema<ChangelogFeed> = feed;

/** The changelog's release-version parameters' message: the grammar the operator publishes releases in. */
const RELEASE_VERSION_MESSAGE = 'must be a release version: major.minor.build such as 2.5.0, with an optional fourth field, ' +
  'no leading zeros, at most 255.255.65535.65535';

/** `since`: only releases of a higher version than this one (the app's previous version, after an update). */
export const ChangelogSinceSchema: v.GenericSchema<string> = v.pipe(
  v.string(),
  v.regex(RELEASE_VERSION, RELEASE_VERSION_MESSAGE),
  v.description(
    'Only releases above this version, as Windows Installer compares versions. A release version (major.minor.build with an ' +
      'optional fourth field, no leading zeros), as releases are published. A version between two releases answers as the ' +
      'highest release at or below it does (the same body, ETag and next_url).',
  ),
);

/** `before`: only releases below this version; the cursor of the next page (a page's next_url carries it). */
export const ChangelogBeforeSchema: v.GenericSchema<string> = v.pipe(
  v.string(),
  v.regex(RELEASE_VERSION, RELEASE_VERSION_MESSAGE),
  v.description(
    'Only releases below this version: the cursor of the next page, as next_url (JSON Feed) or the rel="next" link ' +
      '(Atom) gives it. A release version, as since; a version between two releases answers as the lowest release at ' +
      'or above it does.',
  ),
);

/**
 * `installed`: the version an app runs. The releases at or below it that are not yet at 100 % (above the
 * newest release live for everyone) are listed too: an early adopter's "What's new".
 */
export const ChangelogInstalledSchema: v.GenericSchema<string> = v.pipe(
  v.string(),
  v.regex(RELEASE_VERSION, RELEASE_VERSION_MESSAGE),
  v.description(
    'The version the app runs: the releases at or below it that are not yet at 100 % (a staged release the app got early, ' +
      'above the newest release live for everyone) are listed too, with their roadmap items and reached_everyone_at null. ' +
      'A release version, as since; a version between two such releases answers as the highest at or below it does.',
  ),
);

/** An entity-tag (RFC 9110 section 8.8.3): optionally W/, then a quoted string of etagc. */
const ENTITY_TAG = '(?:W/)?"[\\x21\\x23-\\x7E\\x80-\\xFF]*"';

/**
 * One element of the list: white space, then an entity-tag and white space, or nothing. Each run of white space
 * can be read one way only (before or after the tag, on one side of a comma), so the regex never backtracks
 * more than a step: an ambiguous one took seconds on a header of commas and spaces.
 */
const LIST_ELEMENT = `[ \\t]*(?:${ENTITY_TAG}[ \\t]*)?`;

/** An If-None-Match field as RFC 9110 section 13.1.2 writes it: `*` or a list of entity-tags. */
export const IF_NONE_MATCH_FIELD = new RegExp(`^(?:[ \\t]*\\*[ \\t]*|${LIST_ELEMENT}(?:,${LIST_ELEMENT})*)$`);

/**
 * If-None-Match as RFC 9110 section 13.1.2 defines it: `*`, or a comma-separated list of entity-tags, weak or
 * strong (empty list elements and optional white space allowed, as section 5.6.1 asks a recipient to accept),
 * at most 1,024 characters. A value outside it is 400 invalid_parameter: the document and the server agree.
 */
export const IfNoneMatchSchema: v.GenericSchema<string> = v.pipe(
  v.string(),
  v.maxLength(1024, 'must be at most 1024 characters'),
  v.regex(
    IF_NONE_MATCH_FIELD,
    'must be * or a list of entity-tags such as "3f2a" or W/"3f2a" (RFC 9110 section 13.1.2)',
  ),
  v.description(
    'The ETag of a copy the caller holds (or *, or several, comma-separated; weak ones compare too): 304 without a body ' +
      'while the answer is unchanged. At most 1,024 characters; any other value is 400 invalid_parameter.',
  ),
);

/**
 * If-Modified-Since: an HTTP-date. Any string is accepted, and one that is not an HTTP-date is ignored, as RFC 9110
 * section 13.1.3 requires; it is read only without If-None-Match.
 */
export const IfModifiedSinceSchema: v.GenericSchema<string> = v.pipe(
  v.string(),
  v.description(
    'An HTTP-date such as Tue, 01 Dec 2026 10:00:00 GMT: 304 without a body when the answer has not changed since. Read ' +
      'only without If-None-Match; a value that is not an HTTP-date is ignored (RFC 9110 section 13.1.3).',
  ),
);
