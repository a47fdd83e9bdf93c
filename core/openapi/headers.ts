/**
 * The response headers of the OpenAPI document.
 *
 * @module
 */

/** The five headers on every response. */
export const RATE_LIMIT_HEADERS = [
  'RateLimit',
  'RateLimit-Policy',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
] as const;

const integer = { type: 'integer', minimum: 0 };

export const RESPONSE_HEADERS = {
  RateLimit: {
    description: 'Remaining requests and seconds until the window resets (draft-ietf-httpapi-ratelimit-headers-08).',
    required: true,
    schema: { type: 'string', pattern: '^"public-api";r=[0-9]+;t=[0-9]+$' },
    example: '"public-api";r=119;t=60',
  },
  'RateLimit-Policy': {
    description: 'The quota and window in seconds.',
    required: true,
    schema: { type: 'string', pattern: '^"public-api";q=[0-9]+;w=[0-9]+$' },
    example: '"public-api";q=120;w=60',
  },
  'RateLimit-Limit': { description: 'Maximum requests in the current window.', required: true, schema: integer },
  'RateLimit-Remaining': { description: 'Requests remaining in the current window.', required: true, schema: integer },
  'RateLimit-Reset': {
    description: 'Seconds until the window resets (never an epoch time).',
    required: true,
    schema: { type: 'integer', minimum: 1 },
  },
  'Retry-After': {
    description: 'Seconds to wait before retrying: the time until the window resets.',
    required: true,
    schema: { type: 'integer', minimum: 1 },
  },
  Location: { description: 'The redirect target.', required: true, schema: { type: 'string', format: 'uri' } },
  'Cache-Control': { description: 'Always no-store.', schema: { type: 'string' } },
  Vary: { description: 'The headers the redirect target depends on.', schema: { type: 'string' } },
} as const;
