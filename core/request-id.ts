/**
 * Request ids: the caller's own X-Request-Id when it is safe to echo and to log, otherwise a fresh one.
 *
 * @module
 */
import { headerValue, type HeaderMap } from './http.ts';

/** 1 to 128 characters of A-Z a-z 0-9 . _ : - (what proxies and tracing systems send, nothing to escape). */
const ACCEPTED = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The id of one request.
 *
 * A fresh id is a random UUID: 0.2 µs per request on the project machine (a counter with a random
 * prefix took 0.06 µs), a negligible share of a request, and unlike a counter it tells a client nothing
 * about how many requests the instance serves.
 *
 * @param headers The request headers.
 * @returns The caller's X-Request-Id when accepted, else a new UUID.
 */
export function requestIdFor(headers: HeaderMap): string {
  const given = headerValue(headers, 'x-request-id');
  return given !== undefined && ACCEPTED.test(given) ? given : crypto.randomUUID();
}
