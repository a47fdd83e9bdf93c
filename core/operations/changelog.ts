/**
 * GET /api/v1/changelog (JSON Feed 1.1) and GET /api/v1/changelog.atom (Atom), additions to the spec: the
 * releases live for everyone with the roadmap items each shipped (core/changelog), cacheable: ETag,
 * Last-Modified, 304, and a short public max age. The entries are read at most once a second, and at once
 * after a change made through this app (core/changelog/reads.ts); each feed's bodies and ETags are kept
 * per `since` until the entries change.
 *
 * @module
 */
import * as v from 'valibot';
import type { AppContext, Operation } from '../context.ts';
import { atomFeed } from '../changelog/atom.ts';
import { type ChangelogEntry, isAbove, lastChange } from '../changelog/entries.ts';
import { type FeedHead, jsonFeed } from '../changelog/json-feed.ts';
import { getChangelogAtomEndpoint, getChangelogEndpoint } from '../endpoints.ts';
import { V1_PREFIX } from '../endpoint.ts';
import { answerOf, type Representation, representation } from '../http/conditional.ts';
import { ApiError } from '../http/errors.ts';
import type { CoreRequest, CoreResponse } from '../http/http.ts';
import { parseQueryOrThrow } from '../http/validate.ts';
import { ChangelogSinceSchema, IfNoneMatchSchema } from '../schemas/changelog.ts';

const encoder = new TextEncoder();

/** `since`, checked: a version, given at most once; null when absent or empty. */
function sinceOf(request: CoreRequest): string | null {
  const values = new URLSearchParams(request.query ?? '').getAll('since');
  if (values.length > 1) throw new ApiError('invalid_parameter', 'Query parameter "since" is given more than once.');
  const since = values[0];
  return since ? parseQueryOrThrow(ChangelogSinceSchema, 'since', since, 'invalid_parameter') : null;
}

const IF_NONE_MATCH_RESOLUTION = 'Send the ETag of an earlier answer as it came (or several, comma-separated, or *), or leave the header out.';

/** If-None-Match, checked: absent, or as RFC 9110 writes it (what /openapi.json declares); 400 invalid_parameter else. */
function checkIfNoneMatch(request: CoreRequest): void {
  const value = request.headers['if-none-match'];
  if (value === undefined) return;
  const field = typeof value === 'string' ? value : value.join(', ');
  const checked = v.safeParse(IfNoneMatchSchema, field);
  if (!checked.success) {
    throw new ApiError('invalid_parameter', `Header "If-None-Match" ${checked.issues[0].message}.`, IF_NONE_MATCH_RESOLUTION);
  }
}

/** The most bodies kept per feed: `since` is the caller's choice, so the kept ones start over when full. */
const KEPT_BODIES = 32;

/**
 * A feed's bodies with their validators, kept per `since` while the entries are the same array (reads.ts
 * keeps it while they do not change): a request answered from them costs no serialization and no hash.
 */
function keptBodies(make: (entries: readonly ChangelogEntry[]) => Promise<Representation>) {
  let keptFor: readonly ChangelogEntry[] | null = null;
  const bodies = new Map<string, Promise<Representation>>();
  return (all: readonly ChangelogEntry[], since: string | null): Promise<Representation> => {
    if (all !== keptFor) {
      bodies.clear();
      keptFor = all;
    }
    const key = since ?? '';
    const kept = bodies.get(key);
    if (kept !== undefined) return kept;
    if (bodies.size >= KEPT_BODIES) bodies.clear();
    const made = make(since === null ? all : all.filter((entry) => isAbove(entry.version, since)));
    bodies.set(key, made);
    // A body whose hash failed is not kept: the next request makes it again.
    made.catch(() => bodies.get(key) === made && bodies.delete(key));
    return made;
  };
}

/** One feed's operation: its body from the entries, answered conditionally. */
function feedOperation(
  context: AppContext,
  path: string,
  contentType: string,
  write: (head: FeedHead, entries: readonly ChangelogEntry[]) => string,
): Operation {
  const head: FeedHead = {
    product: context.content.offer.productDisplayName,
    feedUrl: `${context.publicBaseUrl}${V1_PREFIX}${path}`,
    jsonFeedUrl: `${context.publicBaseUrl}${V1_PREFIX}${getChangelogEndpoint.path}`,
  };
  const cacheControl = `public, max-age=${getChangelogEndpoint.cacheable.maxAgeSeconds}`;
  const bodyOf = keptBodies((entries) => representation(encoder.encode(write(head, entries)), lastChange(entries)));
  return async (request): Promise<CoreResponse> => {
    const since = sinceOf(request);
    checkIfNoneMatch(request);
    const kept = await bodyOf(await context.changelog.current(), since);
    return answerOf(request.headers, kept, contentType, cacheControl);
  };
}

/** GET /api/v1/changelog: the JSON Feed. */
export const changelog = (context: AppContext): Operation =>
  feedOperation(context, getChangelogEndpoint.path, 'application/feed+json', (head, entries) => JSON.stringify(jsonFeed(head, entries)));

/** GET /api/v1/changelog.atom: the same as Atom. */
export const changelogAtom = (context: AppContext): Operation =>
  feedOperation(context, getChangelogAtomEndpoint.path, 'application/atom+xml; charset=utf-8', atomFeed);
