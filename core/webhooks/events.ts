/**
 * The events the service reports, built from what changed: one function per event type, so that every
 * storage sends the same body for the same change.
 *
 * @module
 */
import type { FeedbackEntry } from '../port-types.ts';
import { eventBody, type EventDraft } from './ports.ts';

/** feedback.received for a stored entry. */
export function feedbackReceived(entry: FeedbackEntry, id: number): EventDraft {
  return {
    type: 'feedback.received',
    data: {
      id,
      type: entry.type,
      description: entry.description,
      email: entry.email,
      appVersion: entry.appVersion,
      rating: entry.rating,
      receivedAt: new Date(entry.receivedAt).toISOString(),
    },
  };
}

const ID_MARK = 0;

/**
 * The feedback.received body of an entry whose id the database has not drawn yet, as the text before
 * and after the id: SQL splices the id in, and the body is byte for byte the one memory storage sends.
 */
export function feedbackEventParts(entry: FeedbackEntry): [string, string] {
  const body = eventBody(feedbackReceived(entry, ID_MARK), entry.receivedAt);
  const at = body.indexOf(`{"id":${ID_MARK}`) + '{"id":'.length;
  return [body.slice(0, at), body.slice(at + String(ID_MARK).length)];
}
