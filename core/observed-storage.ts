/**
 * Storage that reports its faults: every call that throws or rejects is counted as a storage error before
 * the fault goes on as before. Used only when the app has an observer that counts.
 *
 * @module
 */
import type { MaybePromise, RateLimitStore, Storage } from './ports.ts';

/** The Storage methods the core calls. */
const METHODS = [
  'addFeedback',
  'recordDownload',
  'syncRoadmap',
  'listRoadmap',
  'toggleVote',
  'createCheckout',
  'openCheckouts',
  'getCheckout',
  'advanceCheckout',
  'saveLicenses',
  'getLicenses',
  'secret',
  'ping',
] as const satisfies readonly (keyof Storage)[];

type Method = (...args: never[]) => MaybePromise<unknown>;

/** Calls `target[name]` (looked up at each call, as a direct call would) and reports a fault. */
function reporting(target: object, name: string, onError: () => void): Method {
  const rethrow = (error: unknown): never => {
    onError();
    throw error;
  };
  return (...args) => {
    let result: MaybePromise<unknown>;
    try {
      result = ((target as Record<string, Method>)[name] as Method).apply(target, args);
    } catch (error) {
      return rethrow(error);
    }
    return result instanceof Promise ? result.catch(rethrow) : result;
  };
}

/**
 * Wraps a counter store so that its faults are counted.
 *
 * @param store The counter store.
 * @param onError Called once per fault.
 */
export function reportingRateLimits(store: RateLimitStore, onError: () => void): RateLimitStore {
  const rethrow = (error: unknown): never => {
    onError();
    throw error;
  };
  // Called on every request: two fixed arguments, no rest parameter and no apply.
  return {
    hit(key, windowMs) {
      let result: ReturnType<RateLimitStore['hit']>;
      try {
        result = store.hit(key, windowMs);
      } catch (error) {
        return rethrow(error);
      }
      return result instanceof Promise ? result.catch(rethrow) : result;
    },
  };
}

/**
 * Wraps a storage so that its faults are counted.
 *
 * @param storage The storage.
 * @param onError Called once per fault.
 * @returns A storage with the same behaviour.
 */
export function reportingStorage(storage: Storage, onError: () => void): Storage {
  const wrapped: Record<string, unknown> = {};
  for (const name of METHODS) wrapped[name] = reporting(storage, name, onError);
  const close = storage.close;
  return {
    ...(wrapped as unknown as Omit<Storage, 'rateLimits' | 'close'>),
    rateLimits: reportingRateLimits(storage.rateLimits, onError),
    ...(close ? { close: () => close.call(storage) } : {}),
  };
}
