/**
 * The operator listener's gate: a bearer token compared in constant time, and an address that keeps
 * sending wrong tokens slowed down (refused at once for the rest of a minute after 10 failures).
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

/** Whether two byte strings are equal, in a time that depends on the expected length only. */
function sameBytes(given: Uint8Array, expected: Uint8Array): boolean {
  let difference = given.length ^ expected.length;
  for (let i = 0; i < expected.length; i++) difference |= (given[i] ?? 0) ^ expected[i]!;
  return difference === 0;
}

/**
 * Creates the gate.
 *
 * @param token The operator token (OPERATOR_TOKEN).
 * @param clock Where time comes from (the failure windows).
 */
export function createTokenGate(token: string, clock: Clock): Gate<TokenDecision> {
  const expected = encoder.encode(token);
  const failures = createRecentCache<string, { count: number; resetAt: number }>(10_000);
  const refuse = (refusal: OperatorError): TokenDecision => ({ allowed: false, headers: {}, refusal });

  const failed = (key: string, refusal: OperatorError): TokenDecision => {
    const now = clock.now();
    const window = failures.get(key);
    if (window === undefined || window.resetAt <= now) failures.set(key, { count: 1, resetAt: now + WINDOW_MS });
    else window.count++;
    return refuse(refusal);
  };

  return {
    check(request: CoreRequest) {
      const key = request.clientKey ?? request.clientIp;
      const window = failures.get(key);
      const now = clock.now();
      if (window && window.resetAt > now && window.count >= MAX_FAILURES) {
        const seconds = String(Math.ceil((window.resetAt - now) / 1000));
        const message = `${window.count} refused tokens from this address within a minute.`;
        return refuse(new OperatorError('too_many_failures', message, { 'retry-after': seconds }));
      }
      const authorization = headerValue(request.headers, 'authorization') ?? '';
      const match = /^Bearer +(\S+) *$/i.exec(authorization);
      if (!match) return failed(key, new OperatorError('unauthorized', 'This request carries no bearer token.', { 'www-authenticate': 'Bearer' }));
      if (!sameBytes(encoder.encode(match[1]!), expected)) return failed(key, new OperatorError('forbidden', 'The bearer token is not the operator token.'));
      return ADMITTED;
    },
    refuse(decision): CoreResponse {
      return decision.refusal!.toResponse();
    },
  };
}
