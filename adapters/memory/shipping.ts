/**
 * The shipping records in memory (core/ports/shipping-store.ts): when each release reached everyone.
 *
 * @module
 */
import type { ShippingStore } from '../../core/ports/shipping-store.ts';

/** Creates an in-process shipping store. */
export function createMemoryShipping(): ShippingStore {
  const reached = new Map<string, number>();
  return {
    reachedEveryone: async () => [...reached].map(([version, at]) => ({ version, at })),
    async recordReachedEveryone(version, at) {
      const known = reached.get(version);
      if (known !== undefined) return known;
      reached.set(version, at);
      return at;
    },
  };
}
