/**
 * The shipping records in memory (core/ports/shipping-store.ts): when each release reached everyone, who
 * was told, who asked for no more mails, the features whose requesters are not told.
 *
 * @module
 */
import type { ShippingStore } from '../../core/ports/shipping-store.ts';
import { keep, type Restorable } from './change.ts';

/** Creates an in-process shipping store; a change that throws puts it back (change.ts). */
export function createMemoryShipping(): ShippingStore & Restorable {
  const reached = new Map<string, number>();
  const told = new Map<number, number>();
  const unsubscribed = new Map<string, number>();
  const off = new Set<number>();
  return {
    snapshot: () => keep(reached, told, unsubscribed, off),
    reachedEveryone: async () => [...reached].map(([version, at]) => ({ version, at })),
    async recordReachedEveryone(version, at) {
      const known = reached.get(version);
      if (known !== undefined) return known;
      reached.set(version, at);
      return at;
    },
    told: async () => [...told.keys()].sort((a, b) => a - b),
    async markTold(feedbackId, email, at) {
      if (told.has(feedbackId) || unsubscribed.has(email.toLowerCase())) return false;
      told.set(feedbackId, at);
      return true;
    },
    toldCount: async (from, to) => [...told.values()].filter((at) => at >= from && at < to).length,
    async unsubscribe(email, at) {
      if (!unsubscribed.has(email.toLowerCase())) unsubscribed.set(email.toLowerCase(), at);
    },
    unsubscribed: async () => [...unsubscribed.keys()].sort(),
    async setFeatureMails(featureId, enabled) {
      if (enabled) off.delete(featureId);
      else off.add(featureId);
    },
    mailsOff: async () => [...off].sort((a, b) => a - b),
  };
}
