/**
 * The shipping records in memory (core/ports/shipping-store.ts): when each release reached everyone, who
 * was told, who asked for no more mails, the features whose requesters are not told.
 *
 * @module
 */
import type { ShippingStore } from '../../core/ports/shipping-store.ts';
import { addMember, deleteMember, type MemoryFace, setKey } from './undo.ts';

/** Creates an in-process shipping store; a change's face undoes its own writes when the change throws. */
export function createMemoryShipping(): MemoryFace<ShippingStore> {
  const reached = new Map<string, number>();
  const told = new Map<number, number>();
  const unsubscribed = new Map<string, number>();
  const off = new Set<number>();
  return (undo) => ({
    reachedEveryone: async () => [...reached].map(([version, at]) => ({ version, at })),
    async recordReachedEveryone(version, at) {
      const known = reached.get(version);
      if (known !== undefined) return known;
      setKey(reached, version, at, undo);
      return at;
    },
    told: async () => [...told.keys()].sort((a, b) => a - b),
    async markTold(feedbackId, email, at) {
      if (told.has(feedbackId) || unsubscribed.has(email.toLowerCase())) return false;
      setKey(told, feedbackId, at, undo);
      return true;
    },
    toldCount: async (from, to) => [...told.values()].filter((at) => at >= from && at < to).length,
    async unsubscribe(email, at) {
      if (!unsubscribed.has(email.toLowerCase())) setKey(unsubscribed, email.toLowerCase(), at, undo);
    },
    unsubscribed: async () => [...unsubscribed.keys()].sort(),
    async setFeatureMails(featureId, enabled) {
      if (enabled) deleteMember(off, featureId, undo);
      else addMember(off, featureId, undo);
    },
    mailsOff: async () => [...off].sort((a, b) => a - b),
  });
}
