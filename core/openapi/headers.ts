/**
 * The response headers of the OpenAPI document: which ones each response carries, and their components.
 *
 * @module
 */

/** The five rate-limit headers, on every response. */
export const RATE_LIMIT_HEADERS = [
  'RateLimit',
  'RateLimit-Policy',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
] as const;

/** The headers of every response: the rate-limit state, which no shared cache may keep, and nosniff. */
export const EVERY_RESPONSE_HEADERS = [...RATE_LIMIT_HEADERS, 'Cache-Control', 'X-Content-Type-Options'] as const;

/** The notices on every response of a deprecated /api alias. */
export const DEPRECATION_HEADERS = ['Deprecation', 'Sunset', 'Link'] as const;

/** A header the document can name. */
export type HeaderName = keyof typeof HEADER_COMPONENTS;

const seconds = { type: 'integer', minimum: 1 };
const count = { type: 'integer', minimum: 0 };

const HEADER_COMPONENTS = {
  RateLimit: {
    description:
      'Remaining requests and seconds until the window resets, as in draft-ietf-httpapi-ratelimit-headers-08 ' +
      '(fixed window per client).',
    required: true,
    schema: { type: 'string', pattern: '^"public-api";r=[0-9]+;t=[0-9]+$' },
    example: '"public-api";r=119;t=60',
  },
  'RateLimit-Policy': {
    description: 'The quota and its window in seconds (draft-ietf-httpapi-ratelimit-headers-08).',
    required: true,
    schema: { type: 'string', pattern: '^"public-api";q=[0-9]+;w=[0-9]+$' },
    example: '"public-api";q=120;w=60',
  },
  'RateLimit-Limit': {
    description: 'Maximum requests in the current window.',
    required: true,
    schema: count,
    example: 120,
  },
  'RateLimit-Remaining': {
    description: 'Requests remaining in the current window.',
    required: true,
    schema: count,
    example: 119,
  },
  'RateLimit-Reset': {
    description: 'Seconds until the window resets (never an epoch time).',
    required: true,
    schema: seconds,
    example: 60,
  },
  'Retry-After': {
    description: 'Seconds to wait before retrying: the time until the window resets.',
    required: true,
    schema: seconds,
    example: 42,
  },
  'Cache-Control': {
    description: 'Always no-store: every answer carries per-client rate-limit state.',
    required: true,
    schema: { type: 'string', const: 'no-store' },
  },
  'X-Content-Type-Options': {
    description: 'Always nosniff: the body is of the type Content-Type names, never guessed from its content.',
    required: true,
    schema: { type: 'string', const: 'nosniff' },
  },
  Location: {
    description: 'The redirect target: the MSI installer or the Windows-only warning page, both set by the operator.',
    required: true,
    schema: { type: 'string', format: 'uri' },
  },
  Vary: {
    description: 'The request headers the redirect target depends on (and Origin when CORS origins are configured).',
    required: true,
    schema: { type: 'string', pattern: '^User-Agent, Sec-CH-UA-Platform(, Origin)?$' },
    example: 'User-Agent, Sec-CH-UA-Platform',
  },
  Deprecation: {
    description: 'When this alias was (or will be) deprecated, as @ and seconds since the epoch (RFC 9745).',
    required: true,
    schema: { type: 'string', pattern: '^@-?[0-9]+$' },
    example: '@1798761600',
  },
  Sunset: {
    description: 'When this alias stops answering, as an HTTP-date (RFC 8594).',
    required: true,
    schema: {
      type: 'string',
      pattern: '^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), [0-9]{2} [A-Z][a-z]{2} [0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2} GMT$',
    },
    example: 'Fri, 01 Jan 2027 00:00:00 GMT',
  },
  Link: {
    description: 'The /api/v1 path that replaces this alias (RFC 8288).',
    required: true,
    schema: { type: 'string', pattern: '^</api/v1/[^>]*>; rel="successor-version"$' },
    example: '</api/v1/pricing>; rel="successor-version"',
  },
} as const;

/**
 * The header components the document uses.
 *
 * @param names The headers referenced by some response.
 * @returns The components, in a fixed order, without unused ones.
 */
export function headerComponents(names: ReadonlySet<string>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(HEADER_COMPONENTS).filter(([name]) => names.has(name)));
}
