/**
 * What an endpoint of the public interface is: its operationId, method, path, documented query and headers,
 * body, success answer and error codes. endpoints.ts holds one row of this shape per public endpoint.
 *
 * @module
 */
import type * as v from 'valibot';
import type { ErrorCode } from './http/errors.ts';

/** The versioned prefix and the compatibility prefix of every versioned route. */
export const V1_PREFIX = '/api/v1';
export const ALIAS_PREFIX = '/api';

/** The tag of the routes called by the payment provider or the load balancer, never by the website or the desktop app. */
export const OPERATOR_TAG = 'Operator';

/**
 * The router's pattern of a documented path: each `{name}` segment becomes `:name`.
 *
 * @param path A path as /openapi.json writes it.
 */
export function routerPath(path: string): string {
  return path.replace(/\{([A-Za-z_]\w*)\}/g, ':$1');
}

/** A documented query parameter. */
export interface QueryParameter {
  readonly name: string;
  readonly required: boolean;
  readonly schema: v.GenericSchema;
}

/** How a successful answer looks. */
export type SuccessResponse =
  | {
    readonly status: 200 | 201 | 202;
    readonly description: string;
    readonly schema: v.GenericSchema;
    readonly schemaName: string;
    /** The JSON body's media type when it is not application/json (a JSON Feed's application/feed+json). */
    readonly mediaType?: 'application/feed+json';
    /** Headers beyond every response's, e.g. those of a signed answer. */
    readonly extraHeaders?: readonly string[];
  }
  | {
    readonly status: 200;
    readonly description: string;
    readonly mediaType: 'text/plain' | 'text/html' | 'application/json' | 'application/atom+xml';
    readonly freeForm: true;
    readonly extraHeaders?: readonly string[];
  }
  | { readonly status: 302; readonly description: string; readonly headers: readonly string[] }
  /** No content: the answer is its status and headers. */
  | { readonly status: 204; readonly description: string };

/** One operation of the interface as it is documented and called. */
export interface Endpoint {
  readonly operationId: string;
  readonly method: 'GET' | 'POST';
  /** The path; for a versioned route, the part after /api/v1 (the /api alias shares it). */
  readonly path: string;
  /** Whether the route lives under /api/v1 with an unversioned /api alias. */
  readonly versioned: boolean;
  readonly tag: string;
  readonly summary: string;
  readonly description: string;
  readonly query?: readonly QueryParameter[];
  /** Documented request headers. */
  readonly headers?: readonly QueryParameter[];
  /**
   * The `{name}` segments of `path` (`/updates/{channel}/{file}`), each one path segment; the router
   * matches them as `:name` (`routerPath`).
   */
  readonly pathParameters?: readonly QueryParameter[];
  readonly body?: { readonly schema: v.GenericSchema; readonly schemaName: string; readonly required: boolean };
  readonly success: SuccessResponse;
  /**
   * The error codes this operation answers with, besides rate_limited and internal_error (always possible
   * on a metered route).
   */
  readonly errors: readonly ErrorCode[];
  /**
   * false: outside every client's quota (the probes): never counted, no rate-limit headers, answered
   * before the rate limiter. 'errors': a file for caches (the update files): its 2xx and 3xx answers are
   * outside every quota and carry nothing per client, its errors are metered like every error (the
   * router's `meteredOnError`). Metered by default.
   */
  readonly metered?: false | 'errors';
  /**
   * A cacheable answer (the changelog): the 200 carries ETag, Last-Modified and `Cache-Control: public,
   * max-age=<maxAgeSeconds>` instead of no-store, and a request whose If-None-Match (or If-Modified-Since)
   * matches is answered 304 without a body.
   */
  readonly cacheable?: { readonly maxAgeSeconds: number };
}
