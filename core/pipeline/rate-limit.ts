/**
 * The public rate limit: a fixed window per client key, and the headers that describe it.
 *
 * Headers follow draft-ietf-httpapi-ratelimit-headers-08 (`RateLimit: "public-api";r=..;t=..` and
 * `RateLimit-Policy: "public-api";q=..;w=..`), plus the older `RateLimit-Limit`, `RateLimit-Remaining`
 * and `RateLimit-Reset` fields that many clients still read. Reset is always seconds from now.
 *
 * @module
 */
import { encodeError, errorAnswer } from '../http/errors.ts';
import type { CoreResponse } from '../http/http.ts';
import type { Logger, MaybePromise, RateLimitHit, RateLimitStore } from '../ports/ports.ts';

/** A quota: at most `limit` requests per `windowSeconds` per client. */
export interface RateLimitPolicy {
  /** The policy name in the structured fields. */
  name: string;
  limit: number;
  windowSeconds: number;
}

export const PUBLIC_API_POLICY: RateLimitPolicy = { name: 'public-api', limit: 120, windowSeconds: 60 };

/** The decision for one request and the headers to send with its answer (shared: never changed in place). */
export interface RateLimitDecision {
  readonly allowed: boolean;
  /** Whole seconds until the window resets (at least 1). */
  readonly resetSeconds: number;
  readonly headers: Readonly<Record<string, string>>;
}

/** Enough for the public policy (122 x 61); a policy with a far larger quota builds the rest per request. */
const MAX_CACHED_DECISIONS = 50_000;

/** Counts requests per client and decides. */
export interface RateLimiter {
  check(key: string): MaybePromise<RateLimitDecision>;
  /**
   * The 429 answer of a refused request, with Retry-After (the rate-limit headers are added by the
   * caller, as on every answer).
   */
  refuse(decision: RateLimitDecision): CoreResponse;
}

/**
 * Creates the limiter over a counter store.
 *
 * The limiter fails open: when the store throws, the request is let through with a full quota in the
 * headers, and the fault is logged at most once a minute.
 *
 * @param policy The quota.
 * @param store Where the counters live.
 * @param logger Where store faults are reported.
 * @param now Milliseconds since the epoch, for throttling the fault log.
 * @param onStoreError Told of every store fault (the storage-error count).
 */
export function createRateLimiter(
  policy: RateLimitPolicy,
  store: RateLimitStore,
  logger: Logger,
  now: () => number,
  onStoreError: () => void = () => {},
): RateLimiter {
  const windowMs = policy.windowSeconds * 1000;
  const name = JSON.stringify(policy.name);
  const policyHeader = `${name};q=${policy.limit};w=${policy.windowSeconds}`;
  const limitHeader = String(policy.limit);
  let lastFaultLog = -Infinity;

  const build = (count: number, resetSeconds: number): RateLimitDecision => {
    const remain = String(count >= policy.limit ? 0 : policy.limit - count);
    const reset = String(resetSeconds);
    return Object.freeze({
      allowed: count <= policy.limit,
      resetSeconds,
      headers: Object.freeze({
        ratelimit: `${name};r=${remain};t=${reset}`,
        'ratelimit-policy': policyHeader,
        'ratelimit-limit': limitHeader,
        'ratelimit-remaining': remain,
        'ratelimit-reset': reset,
      }),
    });
  };

  // A decision depends only on (count up to limit + 1, whole seconds to reset): at most
  // (limit + 2) x (window + 1) of them, built once each and shared, so a request builds no strings.
  const stride = policy.windowSeconds + 1;
  const cached = new Map<number, RateLimitDecision>();
  const decide = (hit: RateLimitHit): RateLimitDecision => {
    const count = hit.count > policy.limit ? policy.limit + 1 : hit.count;
    const resetSeconds = hit.resetMs > 1000 ? Math.ceil(hit.resetMs / 1000) : 1;
    if (resetSeconds >= stride || count < 0 || cached.size >= MAX_CACHED_DECISIONS) return build(count, resetSeconds);
    const slot = count * stride + resetSeconds;
    let decision = cached.get(slot);
    if (decision === undefined) cached.set(slot, decision = build(count, resetSeconds));
    return decision;
  };

  const failOpen = (error: unknown): RateLimitDecision => {
    onStoreError();
    const at = now();
    if (at - lastFaultLog >= 60_000) {
      lastFaultLog = at;
      logger.error('rate limit store unavailable; letting requests through', { error: String(error) });
    }
    return decide({ count: 0, resetMs: windowMs });
  };

  // One 429 body per number of seconds to wait: an abusive client costs a lookup, not a serialization.
  const refusals: Uint8Array[] = [];
  const refusalBody = (seconds: number): Uint8Array =>
    encodeError(
      'rate_limited',
      `Too many requests: the limit is ${policy.limit} per ${policy.windowSeconds} seconds per client.`,
      `Wait ${seconds} seconds (see Retry-After), then retry.`,
    );

  return {
    refuse(decision) {
      const seconds = decision.resetSeconds;
      const body = seconds < stride ? (refusals[seconds] ??= refusalBody(seconds)) : refusalBody(seconds);
      return errorAnswer('rate_limited', body, { 'retry-after': String(seconds) });
    },
    check(key) {
      let hit: MaybePromise<RateLimitHit>;
      try {
        hit = store.hit(key, windowMs, policy.limit);
      } catch (error) {
        return failOpen(error);
      }
      return hit instanceof Promise ? hit.then(decide, failOpen) : decide(hit);
    },
  };
}
