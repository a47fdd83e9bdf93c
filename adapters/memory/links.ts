/**
 * Feedback linked to roadmap features in memory (core/ports/link-store.ts): an entry's id is its position
 * in the feedback list (from 1), as in the inbox.
 *
 * @module
 */
import type { FeedbackEntry } from '../../core/ports/port-types.ts';
import type { FeedbackLinkStore } from '../../core/ports/link-store.ts';
import { deleteKey, type MemoryFace, setKey } from './undo.ts';

/** Creates the link store over the stored entries; a change's face undoes its own writes when the change throws. */
export function createMemoryLinks(feedback: readonly FeedbackEntry[]): MemoryFace<FeedbackLinkStore> {
  const featureOf = new Map<number, number>();
  const exists = (id: number) => Number.isSafeInteger(id) && id >= 1 && id <= feedback.length;
  return (undo) => ({
    async linksOf(ids) {
      return [...new Set(ids)].filter(exists).sort((a, b) => a - b).map((feedbackId) => ({ feedbackId, featureId: featureOf.get(feedbackId) ?? null }));
    },
    async linked() {
      return [...featureOf].sort(([a], [b]) => a - b).map(([feedbackId, featureId]) => ({ feedbackId, featureId, email: feedback[feedbackId - 1]!.email }));
    },
    async setFeature(ids, featureId) {
      for (const id of ids.filter(exists)) {
        if (featureId === null) deleteKey(featureOf, id, undo);
        else setKey(featureOf, id, featureId, undo);
      }
    },
  });
}
