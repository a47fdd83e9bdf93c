/**
 * GET /api/v1/changelog (JSON Feed 1.1) and GET /api/v1/changelog.atom (Atom), additions to the spec: the
 * releases live for everyone with the roadmap items each shipped (core/changelog), and with `installed` the
 * releases at or below it not at 100 % yet (an early adopter's "What's new"), 50 a page, cacheable: ETag,
 * Last-Modified, 304, and a short public max age. The entries are read at most once a second, and at once
 * after a change made through this app (core/changelog/reads.ts); `since`, `before` and `installed` are
 * normalised onto the entries' versions (core/changelog/pages.ts), and each feed keeps its bodies and ETags
 * per normalised page, at most `KEPT_BYTES` of them (core/changelog/kept-bodies.ts), until the entries change.
 *
 * @module
 */
import * as v from 'valibot';
import type { AppContext, Operation } from '../context.ts';
import { atomFeed } from '../changelog/atom.ts';
import { type ChangelogEntry, lastChange } from '../changelog/entries.ts';
import { type FeedHead, jsonFeed } from '../changelog/json-feed.ts';
import { createKeptBodies } from '../changelog/kept-bodies.ts';
import { type ChangelogPage, changelogPage, normalisePage, pageKey } from '../changelog/pages.ts';
import { getChangelogAtomEndpoint, getChangelogEndpoint } from '../endpoints.ts';
import { V1_PREFIX } from '../endpoint.ts';
import { answerOf, representation } from '../http/conditional.ts';
import { ApiError } from '../http/errors.ts';
import type { CoreRequest, CoreResponse } from '../http/http.ts';
import { parseQueryOrThrow } from '../http/validate.ts';
import { ChangelogBeforeSchema, ChangelogInstalledSchema, ChangelogSinceSchema, IfNoneMatchSchema } from '../schemas/changelog.ts';

const encoder = new TextEncoder();

/** A version parameter (`since`, `before`), checked: given at most once, in the release grammar; null when absent or empty. */
function versionOf(request: CoreRequest, name: string, schema: v.GenericSchema<string>): string | null {
  const values = new URLSearchParams(request.query ?? '').getAll(name);
  if (values.length > 1) throw new ApiError('invalid_parameter', `Query parameter "${name}" is given more than once.`);
  const value = values[0];
  return value ? parseQueryOrThrow(schema, name, value, 'invalid_parameter') : null;
}

const IF_NONE_MATCH_RESOLUTION = 'Send the ETag of an earlier answer as it came (or several, comma-separated, or *), or leave the header out.';

/** If-None-Match, checked: absent, or as RFC 9110 writes it (what /openapi.json declares); 400 invalid_parameter else. */
function checkIfNoneMatch(request: CoreRequest): void {
  const value = request.headers['if-none-match'];
  if (value === undefined) return;
  const field = typeof value === 'string' ? value : value.join(', ');
  const checked = v.safeParse(IfNoneMatchSchema, field, { abortPipeEarly: true });
  if (!checked.success) {
    throw new ApiError('invalid_parameter', `Header "If-None-Match" ${checked.issues[0].message}.`, IF_NONE_MATCH_RESOLUTION);
  }
}

/**
 * The most bytes of bodies each feed keeps (about a hundred typical pages, four of the largest): `since` and
 * `before` are the caller's choice, so what is kept is capped, the least recently asked going first.
 */
export const KEPT_BYTES = 2 * 1024 * 1024;

/** One feed's operation: its body from the entries, answered conditionally. */
function feedOperation(
  context: AppContext,
  path: string,
  contentType: string,
  write: (head: FeedHead, page: ChangelogPage) => string,
): Operation {
  const head: FeedHead = {
    product: context.content.offer.productDisplayName,
    feedUrl: `${context.publicBaseUrl}${V1_PREFIX}${path}`,
    jsonFeedUrl: `${context.publicBaseUrl}${V1_PREFIX}${getChangelogEndpoint.path}`,
  };
  const cacheControl = `public, max-age=${getChangelogEndpoint.cacheable.maxAgeSeconds}`;
  const kept = createKeptBodies(KEPT_BYTES);
  let keptFor: readonly ChangelogEntry[] | null = null;
  return async (request): Promise<CoreResponse> => {
    const query = {
      since: versionOf(request, 'since', ChangelogSinceSchema),
      before: versionOf(request, 'before', ChangelogBeforeSchema),
      installed: versionOf(request, 'installed', ChangelogInstalledSchema),
    };
    checkIfNoneMatch(request);
    const all = await context.changelog.current();
    // The entries are the same array while they do not change (reads.ts): another array, other bodies.
    if (all !== keptFor) {
      kept.clear();
      keptFor = all;
    }
    const page = normalisePage(all, query);
    const body = await kept.body(pageKey(page), () => {
      const made = changelogPage(all, page);
      return representation(encoder.encode(write(head, made)), lastChange(made.entries));
    });
    return answerOf(request.headers, body, contentType, cacheControl);
  };
}

/** GET /api/v1/changelog: the JSON Feed. */
export const changelog = (context: AppContext): Operation =>
  feedOperation(context, getChangelogEndpoint.path, 'application/feed+json', (head, page) => JSON.stringify(jsonFeed(head, page)));

/** GET /api/v1/changelog.atom: the same as Atom. */
export const changelogAtom = (context: AppContext): Operation =>
  feedOperation(context, getChangelogAtomEndpoint.path, 'application/atom+xml; charset=utf-8', atomFeed);
