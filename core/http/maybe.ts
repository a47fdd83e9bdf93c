/**
 * Values that are ready now or later: synchronous ports (memory storage, native HMAC) answer without a
 * promise, and the operations stay synchronous with them.
 *
 * @module
 */
import type { CoreResponse } from './http.ts';
/** A value now, or later. Ports on a hot path may answer synchronously to save a microtask. */
export type MaybePromise<T> = T | Promise<T>;

/**
 * An answer, at once when the operation could give it without waiting (GET pricing, a rate-limit refusal,
 * GET version from its caches), else later: the measured fast path of docs/performance.md, in one type.
 */
export type Answer = MaybePromise<CoreResponse>;

/**
 * Applies `next` to `value` at once when it is ready, or once its promise resolves.
 *
 * @param value A value or a promise of one.
 * @param next What to do with it; pass a function created once, not per request, on a hot path.
 */
export function andThen<T, R>(value: MaybePromise<T>, next: (value: T) => MaybePromise<R>): MaybePromise<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}
