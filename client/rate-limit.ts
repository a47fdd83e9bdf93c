/**
 * The rate-limit state of an answer, read from its headers.
 *
 * @module
 */
import type { RateLimitState } from './types.ts';

function integer(headers: Headers, name: string): number | undefined {
  const value = headers.get(name);
  return value !== null && /^\d+$/.test(value.trim()) ? Number(value) : undefined;
}

/**
 * Reads RateLimit-Limit, -Remaining, -Reset and Retry-After.
 *
 * @param headers The response headers.
 * @returns The state, or undefined when the three RateLimit headers are not all there.
 */
export function readRateLimit(headers: Headers): RateLimitState | undefined {
  const limit = integer(headers, 'ratelimit-limit');
  const remaining = integer(headers, 'ratelimit-remaining');
  const reset = integer(headers, 'ratelimit-reset');
  if (limit === undefined || remaining === undefined || reset === undefined) return undefined;
  const retryAfter = integer(headers, 'retry-after');
  return retryAfter === undefined ? { limit, remaining, reset } : { limit, remaining, reset, retryAfter };
}
