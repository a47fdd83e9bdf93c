/**
 * GET /api/v1/changelog (JSON Feed 1.1) and GET /api/v1/changelog.atom (Atom), additions to the spec: the
 * releases live for everyone with the roadmap items each shipped (core/changelog), cacheable: ETag,
 * Last-Modified, 304, and a short public max age.
 *
 * @module
 */
import type { AppContext, Operation } from '../context.ts';
import { atomFeed } from '../changelog/atom.ts';
import { changelogEntries, type ChangelogEntry, lastChange } from '../changelog/entries.ts';
import { type FeedHead, jsonFeed } from '../changelog/json-feed.ts';
import { getChangelogAtomEndpoint, getChangelogEndpoint } from '../endpoints.ts';
import { V1_PREFIX } from '../endpoint.ts';
import { conditionalAnswer } from '../http/conditional.ts';
import { ApiError } from '../http/errors.ts';
import type { CoreRequest, CoreResponse } from '../http/http.ts';
import { parseQueryOrThrow } from '../http/validate.ts';
import { shippedReleases } from '../releases/shipped.ts';
import { ChangelogSinceSchema } from '../schemas/changelog.ts';

const encoder = new TextEncoder();

/** `since`, checked: a version, given at most once; null when absent or empty. */
function sinceOf(request: CoreRequest): string | null {
  const values = new URLSearchParams(request.query ?? '').getAll('since');
  if (values.length > 1) throw new ApiError('invalid_parameter', 'Query parameter "since" is given more than once.');
  const since = values[0];
  return since ? parseQueryOrThrow(ChangelogSinceSchema, 'since', since, 'invalid_parameter') : null;
}

/** The entries of the changelog now, read from storage (a release newly live for everyone gets its time recorded). */
async function entriesNow(context: AppContext, since: string | null): Promise<ChangelogEntry[]> {
  const { storage, clock } = context;
  const [releases, features] = await Promise.all([storage.releases.listReleases(), storage.features.list()]);
  return changelogEntries(await shippedReleases(releases, storage.shipping, clock.now()), features, since);
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
  return async (request): Promise<CoreResponse> => {
    const entries = await entriesNow(context, sinceOf(request));
    return conditionalAnswer(request.headers, encoder.encode(write(head, entries)), contentType, lastChange(entries), cacheControl);
  };
}

/** GET /api/v1/changelog: the JSON Feed. */
export const changelog = (context: AppContext): Operation =>
  feedOperation(context, getChangelogEndpoint.path, 'application/feed+json', (head, entries) => JSON.stringify(jsonFeed(head, entries)));

/** GET /api/v1/changelog.atom: the same as Atom. */
export const changelogAtom = (context: AppContext): Operation =>
  feedOperation(context, getChangelogAtomEndpoint.path, 'application/atom+xml; charset=utf-8', atomFeed);
