/**
 * A shared HTTP cache in front of one origin, as RFC 9111 has it for the answers the update files get:
 * a 200 whose Cache-Control says `public, max-age=N` is stored; it is served fresh while its age (now less
 * when it was received or last revalidated) is below N seconds; once stale, the next request for it is
 * sent to the origin with If-None-Match, and a 304 makes it fresh again. `immutable` (RFC 8246) changes
 * nothing within a year's max-age but is kept. A client's own If-None-Match that matches a fresh entry is
 * answered 304 by the cache. Answers that are not stored (`no-store`, `private`, no max-age, not 200)
 * go to the origin every time. One cache for every client: the CDN edge every install reaches.
 *
 * Counts what a cache operator would: hits (served fresh, no origin request), revalidations (stale,
 * sent conditionally), misses (nothing stored), and the origin requests they make.
 *
 * @module
 */
import type { CoreResponse } from '../../core/http/http.ts';

/** What the cache keeps of one answer. */
export interface CacheEntry {
  body: Uint8Array;
  etag: string | null;
  /** When it was received or last revalidated (the simulated clock, ms). */
  storedAt: number;
  maxAgeMs: number;
  immutable: boolean;
}

/** What the cache counts. */
export interface CacheCounts {
  requests: number;
  hits: number;
  revalidations: number;
  /** Revalidations the origin answered 304. */
  notModified: number;
  misses: number;
  originRequests: number;
}

/** One answer of the cache to a client: its status and, for a 200, the bytes every client shares. */
export interface CacheAnswer {
  status: number;
  body: Uint8Array | null;
  etag: string | null;
}

/** Asks the origin: a path and the conditional header, if any. */
export type Origin = (path: string, ifNoneMatch: string | null) => Promise<CoreResponse>;

const encoder = new TextEncoder();

/** The freshness terms of a Cache-Control value, or null when a shared cache may not store the answer. */
export function storableTerms(cacheControl: string | undefined): { maxAgeMs: number; immutable: boolean } | null {
  if (cacheControl === undefined) return null;
  const directives = cacheControl.toLowerCase().split(',').map((part) => part.trim());
  if (directives.some((d) => d === 'no-store' || d === 'private' || d === 'no-cache')) return null;
  const maxAge = directives.map((d) => /^(?:s-maxage|max-age)=(\d+)$/.exec(d)).find((match) => match !== null);
  if (maxAge === undefined || maxAge === null) return null;
  return { maxAgeMs: Number(maxAge[1]) * 1000, immutable: directives.includes('immutable') };
}

const header = (response: CoreResponse, name: string) => {
  const value = response.headers[name];
  return typeof value === 'string' ? value : undefined;
};

const bytesOf = (body: CoreResponse['body']): Uint8Array => body === null ? new Uint8Array(0) : typeof body === 'string' ? encoder.encode(body) : body;

/** The shared cache. */
export interface SharedCache {
  readonly counts: CacheCounts;
  /**
   * The entry of a path when it is fresh at `now`, without counting anything: the caller counts the hit
   * (`hit`). The hot path of a million polls, so it allocates nothing.
   */
  fresh(path: string, now: number): CacheEntry | null;
  /** Counts one request served fresh. */
  hit(): void;
  /** A request the cache cannot answer fresh: revalidated or fetched from the origin, counted. */
  fetch(path: string, now: number, clientTag: string | null): Promise<CacheAnswer>;
  /** A request served as the cache would: fresh from the entry, else through the origin. */
  get(path: string, now: number, clientTag: string | null): Promise<CacheAnswer>;
}

/** Creates an empty shared cache in front of `origin`. */
export function createSharedCache(origin: Origin): SharedCache {
  const entries = new Map<string, CacheEntry>();
  const counts: CacheCounts = { requests: 0, hits: 0, revalidations: 0, notModified: 0, misses: 0, originRequests: 0 };
  const answerOf = (entry: CacheEntry, clientTag: string | null): CacheAnswer =>
    clientTag !== null && clientTag === entry.etag ? { status: 304, body: null, etag: entry.etag } : { status: 200, body: entry.body, etag: entry.etag };

  const fresh = (path: string, now: number): CacheEntry | null => {
    const entry = entries.get(path);
    return entry !== undefined && now - entry.storedAt < entry.maxAgeMs ? entry : null;
  };

  const fetchThrough = async (path: string, now: number, clientTag: string | null): Promise<CacheAnswer> => {
    counts.requests++;
    counts.originRequests++;
    const stored = entries.get(path);
    if (stored !== undefined) counts.revalidations++;
    else counts.misses++;
    const response = await origin(path, stored?.etag ?? null);
    if (stored !== undefined && response.status === 304) {
      counts.notModified++;
      const terms = storableTerms(header(response, 'cache-control'));
      stored.storedAt = now;
      if (terms !== null) Object.assign(stored, terms);
      return answerOf(stored, clientTag);
    }
    const etag = header(response, 'etag') ?? null;
    const terms = response.status === 200 ? storableTerms(header(response, 'cache-control')) : null;
    const body = bytesOf(response.body);
    if (terms === null) {
      entries.delete(path);
      return { status: response.status, body, etag };
    }
    const entry: CacheEntry = { body, etag, storedAt: now, ...terms };
    entries.set(path, entry);
    return answerOf(entry, clientTag);
  };

  return {
    counts,
    fresh,
    hit: () => {
      counts.requests++;
      counts.hits++;
    },
    fetch: fetchThrough,
    async get(path, now, clientTag) {
      const entry = fresh(path, now);
      if (entry === null) return await fetchThrough(path, now, clientTag);
      counts.requests++;
      counts.hits++;
      return answerOf(entry, clientTag);
    },
  };
}
