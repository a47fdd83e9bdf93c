/**
 * What the checks assert, each failing with one line that says what was expected and what came.
 */
import { type Answer, describe, fail } from './answer.ts';

/** The spec's quota: 120 requests per 60 seconds. */
export const QUOTA = 120;
export const WINDOW = 60;
const POLICY = `"public-api";q=${QUOTA};w=${WINDOW}`;
const RATE_LIMIT = /^"public-api";r=(\d+);t=(\d+)$/;

/** The answer has this status. */
export function expectStatus(answer: Answer, status: number): void {
  if (answer.status !== status) fail(`expected ${status}, got: ${describe(answer)}`);
}

/** The media type of the answer, without parameters, lower case. */
export function mediaType(answer: Answer): string {
  return (answer.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
}

/** The answer is `status` with a JSON body (application/json); returns the body. */
export function expectJson(answer: Answer, status: number): unknown {
  expectStatus(answer, status);
  if (mediaType(answer) !== 'application/json') {
    fail(`expected Content-Type application/json, got ${JSON.stringify(answer.headers.get('content-type'))}: ${describe(answer)}`);
  }
  if (answer.json === undefined) fail(`expected a JSON body, got: ${describe(answer)}`);
  return answer.json;
}

/** The answer is a JSON object; returns it. */
export function expectObject(answer: Answer, status: number): Record<string, unknown> {
  const body = expectJson(answer, status);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) fail(`expected a JSON object, got: ${describe(answer)}`);
  return body as Record<string, unknown>;
}

/** The answer is an error object (exactly code, message, resolution, all strings) with this status. */
export function expectApiError(answer: Answer, status: number, code?: string): Record<string, string> {
  const body = expectObject(answer, status);
  const keys = Object.keys(body).sort().join(',');
  if (keys !== 'code,message,resolution') fail(`expected exactly the fields code, message, resolution, got ${keys || 'none'}: ${describe(answer)}`);
  for (const field of ['code', 'message', 'resolution']) {
    if (typeof body[field] !== 'string') fail(`expected "${field}" to be a string: ${describe(answer)}`);
  }
  if (code !== undefined && body['code'] !== code) fail(`expected code "${code}", got "${String(body['code'])}": ${describe(answer)}`);
  return body as Record<string, string>;
}

/** The answer is a 4xx (any client error): for requests whose exact error status the spec does not fix. */
export function expectClientError(answer: Answer): void {
  if (answer.status < 400 || answer.status > 499) fail(`expected a 4xx error, got: ${describe(answer)}`);
}

function integer(answer: Answer, name: string, clause: string): number {
  const value = answer.headers.get(name);
  if (value === null) fail(`expected header ${name}, got none: ${describe(answer)}`, clause);
  if (!/^\d+$/.test(value.trim())) fail(`expected ${name} to be an integer, got ${JSON.stringify(value)}: ${describe(answer)}`, clause);
  return Number(value);
}

/**
 * The five rate-limit headers as the Limits table gives them; Retry-After only on a 429. Whichever check
 * sees a broken one, the failure carries that header's own clause (limits.RateLimit-Policy, ...).
 */
export function expectRateLimitHeaders(answer: Answer): { remaining: number; reset: number } {
  const rateLimit = answer.headers.get('ratelimit');
  const parts = rateLimit === null ? null : RATE_LIMIT.exec(rateLimit.trim());
  if (!parts) fail(`expected RateLimit "public-api";r=<remaining>;t=<seconds>, got ${JSON.stringify(rateLimit)}: ${describe(answer)}`, 'limits.RateLimit');
  const policy = answer.headers.get('ratelimit-policy');
  if (policy?.trim() !== POLICY) fail(`expected RateLimit-Policy ${POLICY}, got ${JSON.stringify(policy)}: ${describe(answer)}`, 'limits.RateLimit-Policy');
  const limit = integer(answer, 'ratelimit-limit', 'limits.RateLimit-Limit');
  if (limit !== QUOTA) fail(`expected RateLimit-Limit ${QUOTA}, got ${limit}: ${describe(answer)}`, 'limits.RateLimit-Limit');
  const remaining = integer(answer, 'ratelimit-remaining', 'limits.RateLimit-Remaining');
  if (Number(parts[1]) !== remaining) {
    fail(`expected RateLimit r=${remaining} as RateLimit-Remaining, got r=${parts[1]}: ${describe(answer)}`, 'limits.RateLimit');
  }
  const reset = integer(answer, 'ratelimit-reset', 'limits.RateLimit-Reset');
  if (answer.status !== 429 && answer.headers.has('retry-after')) {
    fail(`expected no Retry-After on a ${answer.status}: ${describe(answer)}`, 'limits.Retry-After');
  }
  return { remaining, reset };
}

/** Whether text is an absolute URI. */
export function isUri(text: unknown): boolean {
  if (typeof text !== 'string') return false;
  try {
    new URL(text);
    return /^[a-z][a-z0-9+.-]*:/i.test(text);
  } catch {
    return false;
  }
}
