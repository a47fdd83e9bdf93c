/**
 * CORS for the product website: allowed origins from the operator, preflight answers, exposed headers.
 *
 * @module
 */
import { type CoreRequest, type CoreResponse, headerValue } from './http.ts';

/** Headers a browser script may read: the rate-limit state, the request id and the deprecation notices. */
export const EXPOSED_HEADERS = [
  'RateLimit',
  'RateLimit-Policy',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'Retry-After',
  'X-Request-Id',
  'Deprecation',
  'Sunset',
  'Link',
].join(', ');

/**
 * Request headers a page may send beyond the CORS-safelisted ones: `Content-Type: application/json` (the
 * client's and the docs' POST bodies) and `X-Request-Id` (a page's own request id, see observability.md).
 */
export const ALLOWED_REQUEST_HEADERS = 'Content-Type, X-Request-Id';

/** How long a browser may cache a preflight answer, in seconds. */
const PREFLIGHT_MAX_AGE = '600';

export interface Cors {
  /** Adds the CORS headers of an actual (non-preflight) response, in place. */
  decorate(request: CoreRequest, response: CoreResponse): void;
  /** The answer to OPTIONS on a known path: 204 with Allow, plus the preflight fields for an allowed origin. */
  options(request: CoreRequest, allow: string): CoreResponse;
}

/**
 * Creates the CORS policy.
 *
 * @param origins Exact origins such as "https://www.example.com", or ["*"] for any origin.
 */
export function createCors(origins: readonly string[]): Cors {
  const any = origins.includes('*');
  const allowed = new Set(origins);
  const allowOrigin = (origin: string | undefined): string | undefined =>
    origin === undefined ? undefined : any ? '*' : allowed.has(origin) ? origin : undefined;

  const addVary = (response: CoreResponse): void => {
    if (any || allowed.size === 0) return;
    const vary = response.headers['vary'];
    response.headers['vary'] = vary ? `${vary}, Origin` : 'Origin';
  };

  return {
    decorate(request, response) {
      addVary(response);
      const origin = allowOrigin(headerValue(request.headers, 'origin'));
      if (origin === undefined) return;
      response.headers['access-control-allow-origin'] = origin;
      response.headers['access-control-expose-headers'] = EXPOSED_HEADERS;
    },
    options(request, allow) {
      // Vary and Allow-Origin are added by `decorate`, which runs on every response.
      const response: CoreResponse = { status: 204, headers: { allow }, body: null };
      const origin = allowOrigin(headerValue(request.headers, 'origin'));
      if (origin !== undefined && headerValue(request.headers, 'access-control-request-method') !== undefined) {
        response.headers['access-control-allow-methods'] = allow;
        response.headers['access-control-allow-headers'] = ALLOWED_REQUEST_HEADERS;
        response.headers['access-control-max-age'] = PREFLIGHT_MAX_AGE;
      }
      return response;
    },
  };
}
