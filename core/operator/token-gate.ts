/**
 * The operator listener's gate: a bearer token compared in constant time with every operator's token (named
 * tokens: named-tokens.ts; which one matched names the actor of the audit trail), and wrong tokens capped: 10 a
 * minute from one address, 100 a minute from all addresses together; past a cap a wrong token is refused
 * with 429 for the rest of the minute. The right token is always accepted, so nobody who can reach the
 * listener keeps the owner out (a guess past the cap learns nothing but 429, and a token of at least 32
 * characters is not guessed at 100 a minute). The operator pages' sign-in form uses the same checker.
 *
 * @module
 */
import type { CoreRequest, CoreResponse } from '../http/http.ts';
import { headerValue } from '../http/http.ts';
import type { Clock } from '../ports/ports.ts';
import type { Gate, GateDecision } from '../pipeline/pipeline.ts';
import { createRecentCache } from '../clients/recent-cache.ts';
import { OperatorError } from './errors.ts';
import type { OperatorToken } from './named-tokens.ts';

/** Wrong tokens one address may send per window; past it a wrong token is answered 429. */
export const MAX_FAILURES = 10;
/** Wrong tokens all addresses together may send per window (many addresses cannot spread the guessing). */
export const MAX_FAILURES_ALL = 100;
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
   * @returns Null when it is one operator's token, else the refusal (unauthorized, forbidden, too_many_failures).
   */
  check(key: string, given: string | null): OperatorError | null;
  /**
   * Whose token this is, compared with every token in a time that does not depend on which one matched.
   *
   * @returns The operator's name, or null when it is nobody's.
   */
  actorOf(given: string | null): string | null;
}

/**
 * Creates the checker.
 *
 * @param tokens The operators' tokens (OPERATOR_TOKEN as `operator`, OPERATOR_TOKENS), at least one.
 * @param clock Where time comes from (the failure windows).
 */
export function createTokenChecker(tokens: readonly OperatorToken[], clock: Clock): TokenChecker {
  const failures = createRecentCache<string, { count: number; resetAt: number }>(10_000);
  const all = { count: 0, resetAt: 0 };

  const capped = (count: number, resetAt: number, now: number, whose: string): OperatorError => {
    const seconds = String(Math.ceil((resetAt - now) / 1000));
    return new OperatorError('too_many_failures', `${count} refused tokens from ${whose} within a minute.`, { 'retry-after': seconds });
  };

  const failed = (key: string, refusal: OperatorError): OperatorError => {
    const now = clock.now();
    if (all.resetAt <= now) Object.assign(all, { count: 0, resetAt: now + WINDOW_MS });
    const window = failures.get(key);
    const mine = window === undefined || window.resetAt <= now ? { count: 0, resetAt: now + WINDOW_MS } : window;
    if (mine.count >= MAX_FAILURES) return capped(mine.count, mine.resetAt, now, 'this address');
    if (all.count >= MAX_FAILURES_ALL) return capped(all.count, all.resetAt, now, 'all addresses');
    mine.count++;
    all.count++;
    failures.set(key, mine);
    return refusal;
  };

  const actorOf = (given: string | null): string | null => {
    if (given === null) return null;
    let actor: string | null = null;
    // Every token is compared, whichever matches: the time says nothing of which one is closest.
    for (const { name, token } of tokens) if (sameSecret(given, token) && actor === null) actor = name;
    return actor;
  };

  return {
    actorOf,
    check(key, given) {
      if (actorOf(given) !== null) return null;
      if (given === null) return failed(key, new OperatorError('unauthorized', 'This request carries no bearer token.', { 'www-authenticate': 'Bearer' }));
      return failed(key, new OperatorError('forbidden', 'The bearer token is none of the operator tokens.'));
    },
  };
}

/** The bearer token of a request's Authorization header, or null when it has none. */
export function bearerOf(request: CoreRequest): string | null {
  const match = /^Bearer +(\S+) *$/i.exec(headerValue(request.headers, 'authorization') ?? '');
  return match ? match[1]! : null;
}

/**
 * Creates the gate of the operator API.
 *
 * @param checker The token checker (shared with the sign-in form of the pages).
 */
export function createTokenGate(checker: TokenChecker): Gate<TokenDecision> {
  return {
    check(request: CoreRequest) {
      const refusal = checker.check(request.clientKey ?? request.clientIp, bearerOf(request));
      return refusal ? { allowed: false, headers: {}, refusal } : ADMITTED;
    },
    refuse(decision): CoreResponse {
      return decision.refusal!.toResponse();
    },
  };
}
