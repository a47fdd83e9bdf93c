/**
 * Conditional GET (RFC 9110 section 13): a strong ETag from the body's SHA-256, Last-Modified, and 304 Not
 * Modified when the caller's copy is current. If-None-Match is evaluated first; If-Modified-Since only
 * without it, as section 13.2.2 orders.
 *
 * @module
 */
import { type CoreResponse, type HeaderMap, headerValue } from './http.ts';

/** A strong entity tag of a body: the first 128 bits of its SHA-256 in hex, quoted. */
export async function entityTag(body: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', body as Uint8Array<ArrayBuffer>));
  return `"${[...digest.slice(0, 16)].map((byte) => byte.toString(16).padStart(2, '0')).join('')}"`;
}

/** The entity-tags of an If-None-Match list, each as its opaque part (with the quotes, without W/). */
const ENTITY_TAGS = /(?:W\/)?("[^"]*")/g;

/**
 * Whether If-None-Match names the tag (weak comparison, as RFC 9110 asks of it) or is `*`. The field is read
 * as RFC 9110 section 13.1.2 writes it (the operation refuses any other, core/schemas/changelog.ts), so a
 * comma inside a quoted tag is part of the tag.
 */
function noneMatch(field: string, tag: string): boolean {
  if (field.trim() === '*') return true;
  for (const [, opaque] of field.matchAll(ENTITY_TAGS)) if (opaque === tag) return true;
  return false;
}

/** Whether the representation is unchanged for the caller, by its If-None-Match or else its If-Modified-Since. */
export function notModified(headers: HeaderMap, tag: string, lastModified: number | null): boolean {
  const ifNoneMatch = headers['if-none-match'];
  // A field sent on several lines is one list (RFC 9110 section 5.3).
  if (ifNoneMatch !== undefined) return noneMatch(typeof ifNoneMatch === 'string' ? ifNoneMatch : ifNoneMatch.join(', '), tag);
  const ifModifiedSince = headerValue(headers, 'if-modified-since');
  if (ifModifiedSince === undefined || lastModified === null) return false;
  const since = Date.parse(ifModifiedSince);
  // An invalid date is ignored; Last-Modified has whole seconds.
  return !Number.isNaN(since) && Math.floor(lastModified / 1000) * 1000 <= since;
}

/** A body with its validators, worked out once and answered from as often as asked. */
export interface Representation {
  body: Uint8Array;
  tag: string;
  /** When it last changed (ms), or null when unknown. */
  lastModified: number | null;
}

/** A body with its strong ETag. */
export async function representation(body: Uint8Array, lastModified: number | null): Promise<Representation> {
  return { body, tag: await entityTag(body), lastModified };
}

/**
 * The answer of a cacheable GET from a representation: 200 with the body, or 304 without it; both with
 * ETag, Last-Modified (when known) and `cacheControl`.
 */
export function answerOf(headers: HeaderMap, { body, tag, lastModified }: Representation, contentType: string, cacheControl: string): CoreResponse {
  const validators: Record<string, string> = { etag: tag, 'cache-control': cacheControl };
  if (lastModified !== null) validators['last-modified'] = new Date(lastModified).toUTCString();
  if (notModified(headers, tag, lastModified)) return { status: 304, headers: validators, body: null };
  return { status: 200, headers: { 'content-type': contentType, ...validators }, body };
}
