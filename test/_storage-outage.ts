/**
 * A storage that goes down on demand: while down, every method of its sub-stores (feedback, roadmap,
 * checkouts, releases, ...) rejects as a lost database would, and the rate limiter keeps counting, so an
 * answer still carries its rate-limit headers. For tests of what a client sees when storage fails.
 */
import type { Storage } from '../core/storage.ts';

/** The storage and its switch. */
export interface StorageOutage {
  storage: Storage;
  /** From now on, every sub-store call rejects. */
  down(): void;
}

/** Wraps `storage` so that its sub-stores fail after `down()`; `rateLimits` is left as it is. */
export function storageOutage(storage: Storage): StorageOutage {
  let isDown = false;
  const failing = <T extends object>(store: T): T =>
    new Proxy(store, {
      get(target, key) {
        const value: unknown = Reflect.get(target, key);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => isDown ? Promise.reject(new Error('storage is down')) : (value as (...a: unknown[]) => unknown).apply(target, args);
      },
    });
  const wrapped = new Proxy(storage, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key);
      return key !== 'rateLimits' && typeof value === 'object' && value !== null ? failing(value) : value;
    },
  });
  return { storage: wrapped, down: () => void (isDown = true) };
}
