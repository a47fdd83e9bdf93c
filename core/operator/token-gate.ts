/**
 * The operator listener's gate: a bearer token compared in constant time, and an address that keeps
 * sending wrong tokens slowed down (refused at once for the rest of a minute after 10 failures). The
 * operator pages' sign-in form checks its token with the same checker, so it is slowed down alike.
 *
 * @module
 */
import type { CoreRequest, CoreResponse } from '../http.ts';
import { headerValue } from '../http.ts';
import type { Clock } from '../ports.ts';
import type { Gate, GateDecision } from '../pipeline.ts';
import { createRecentCache } from '../recent-cache.ts';
import { OperatorError } from './errors.ts';

/** Failed attempts one address may make per window before it is refused without a check. */
export const MAX_FAILURES = 10;
const WINDOW_MS = 60_000;

interface TokenDecision extends GateDecision {
  readonly refusal: OperatorError | null;
}

const ADMITTED: TokenDecision = Object.freeze({ allowed: true, headers: Object.freeze({}), refusal: null });
const encoder = new TextEncoder();

/** Whether two strings are equal, in a time that depends on the expected length only. */
export function sameSecret(given: string, expected: string): boolean {
  const a = encoder.encode(given);
  const b = encoder.encode(expected);
  let difference = a.length ^ b.length;
  for (let i = 0; i < b.length; i++) difference |= (a[i] ?? 0) ^ b[i]!;
  return difference === 0;
}

/** Checks a token given by a client (a bearer header, or the sign-in form), counting failures per address. */
export interface TokenChecker {
  /**
   * @param key The client key (its address).
   * @param given The token given, or null when none was.
   * @returns Null when it is the operator token, else the refusal (unauthorized, forbidden, too_many_failures).
   */
  check(key: string, given: string | null): OperatorError | null;
}

/**
 * Creates the checker.
 *
 * @param token The operator token (OPERATOR_TOKEN).
 * @param clock Where time comes from (the failure windows).
 */
export function createTokenChecker(token: string, clock: Clock): TokenChecker {
  const failures = createRecentCache<string, { count: number; resetAt: number }>(10_000);

  const failed = (key: string, refusal: OperatorError): OperatorError => {
    const now = clock.now();
    const window = failures.get(key);
    if (window === undefined || window.resetAt <= now) failures.set(key, { count: 1, resetAt: now + WINDOW_MS });
    else window.count++;
    return refusal;
  };

  return {
    check(key, given) {
      const window = failures.get(key);
      const now = clock.now();
      if (window && window.resetAt > now && window.count >= MAX_FAILURES) {
        const seconds = String(Math.ceil((window.resetAt - now) / 1000));
        const message = `${window.count} refused tokens from this address within a minute.`;
        return new OperatorError('too_many_failures', message, { 'retry-after': seconds });
      }
      if (given === null) return failed(key, new OperatorError('unauthorized', 'This request carries no bearer token.', { 'www-authenticate': 'Bearer' }));
      if (!sameSecret(given, token)) return failed(key, new OperatorError('forbidden', 'The bearer token is not the operator token.'));
      return null;
    },
  };
}

/**
 * Creates the gate of the operator API.
 *
 * @param checker The token checker (shared with the sign-in form of the pages).
 */
export function createTokenGate(checker: TokenChecker): Gate<TokenDecision> {
  return {
    check(request: CoreRequest) {
      const authorization = headerValue(request.headers, 'authorization') ?? '';
      const match = /^Bearer +(\S+) *$/i.exec(authorization);
      const refusal = checker.check(request.clientKey ?? request.clientIp, match ? match[1]! : null);
      return refusal ? { allowed: false, headers: {}, refusal } : ADMITTED;
    },
    refuse(decision): CoreResponse {
      return decision.refusal!.toResponse();
    },
  };
}
