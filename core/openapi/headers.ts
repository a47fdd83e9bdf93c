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

/**
 * The headers of every response: the rate-limit state, which no shared cache may keep, nosniff and the
 * request id.
 */
export const EVERY_RESPONSE_HEADERS = [...RATE_LIMIT_HEADERS, 'Cache-Control', 'X-Content-Type-Options', 'X-Request-Id'] as const;

/** The headers of an answer outside every quota (the probes): no rate-limit state. */
export const UNMETERED_HEADERS = ['Cache-Control', 'X-Content-Type-Options', 'X-Request-Id'] as const;

/** The notices on every response of a deprecated /api alias. */
export const DEPRECATION_HEADERS = ['Deprecation', 'Sunset', 'Link'] as const;

/** A header the document can name. */
export type HeaderName = keyof typeof HEADER_COMPONENTS;

const seconds = { type: 'integer', minimum: 1 };
const count = { type: 'integer', minimum: 0 };

/** A header component: every response that lists a header always carries it, so each one is required. */
interface HeaderComponent {
  description: string;
  required: true;
  schema: object;
  example?: string | number;
}

/**
 * One header component, its fields in the document's order.
 *
 * @param description What the header says.
 * @param schema The schema of its value.
 * @param example A typical value for documentation tools, where one helps.
 * @returns The component.
 */
function header(description: string, schema: object, example?: string | number): HeaderComponent {
  return example === undefined ? { description, required: true, schema } : { description, required: true, schema, example };
}

const HEADER_COMPONENTS = {
  RateLimit: header(
    'Remaining requests and seconds until the window resets, as in draft-ietf-httpapi-ratelimit-headers-08 ' +
      '(fixed window per client).',
    { type: 'string', pattern: '^"public-api";r=[0-9]+;t=[0-9]+$' },
    '"public-api";r=119;t=60',
  ),
  'RateLimit-Policy': header(
    'The quota and its window in seconds (draft-ietf-httpapi-ratelimit-headers-08).',
    { type: 'string', pattern: '^"public-api";q=[0-9]+;w=[0-9]+$' },
    '"public-api";q=120;w=60',
  ),
  'RateLimit-Limit': header('Maximum requests in the current window.', count, 120),
  'RateLimit-Remaining': header('Requests remaining in the current window.', count, 119),
  'RateLimit-Reset': header('Seconds until the window resets (never an epoch time).', seconds, 60),
  'Retry-After': header('Seconds to wait before retrying: the time until the window resets.', seconds, 42),
  'Cache-Control': header(
    'Always no-store: every answer carries per-client rate-limit state (or, from a probe, the state of this instance).',
    { type: 'string', const: 'no-store' },
  ),
  'X-Request-Id': header(
    'The id of this request, on every answer and in every server log line about it: the X-Request-Id the ' +
      'caller sent when it is 1 to 128 characters of A-Z a-z 0-9 . _ : -, otherwise a fresh UUID.',
    { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,128}$' },
    '3f1c2a9e-5b7d-4e0f-9a61-2c8d4b7e1f05',
  ),
  'X-Content-Type-Options': header(
    'Always nosniff: the body is of the type Content-Type names, never guessed from its content.',
    { type: 'string', const: 'nosniff' },
  ),
  Location: header(
    'The redirect target: the MSI installer or the Windows-only warning page, both set by the operator.',
    { type: 'string', format: 'uri' },
  ),
  Vary: header(
    'The request headers the redirect target depends on (and Origin when CORS origins are configured).',
    { type: 'string', pattern: '^User-Agent, Sec-CH-UA-Platform(, Origin)?$' },
    'User-Agent, Sec-CH-UA-Platform',
  ),
  Deprecation: header(
    'When this alias was (or will be) deprecated, as @ and seconds since the epoch (RFC 9745).',
    { type: 'string', pattern: '^@-?[0-9]+$' },
    '@1798761600',
  ),
  Sunset: header(
    'When this alias stops answering, as an HTTP-date (RFC 8594).',
    {
      type: 'string',
      pattern: '^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), [0-9]{2} [A-Z][a-z]{2} [0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2} GMT$',
    },
    'Fri, 01 Jan 2027 00:00:00 GMT',
  ),
  Link: header(
    'The /api/v1 path that replaces this alias (RFC 8288).',
    { type: 'string', pattern: '^</api/v1/[^>]*>; rel="successor-version"$' },
    '</api/v1/pricing>; rel="successor-version"',
  ),
};

/**
 * The header components the document uses.
 *
 * @param names The headers referenced by some response.
 * @returns The components, in a fixed order, without unused ones.
 */
export function headerComponents(names: ReadonlySet<string>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(HEADER_COMPONENTS).filter(([name]) => names.has(name)));
}
