/**
 * The mail outbox in memory: messages as the SQL one keeps them (lost on restart, like everything in
 * memory storage), one per cause. At most `maxMails` are kept: the oldest finished ones go first. Resend
 * requests wait in a queue of at most `maxRequests` (the oldest dropped first when a flood fills it).
 *
 * @module
 */
import type { ClaimedResendRequest, MailStore, StoredMail } from '../../core/ports/mail.ts';
import { addMember, deleteKey, type MemoryFace, patch, setKey, type Undo } from './undo.ts';

const MAX_MAILS = 10_000;
const MAX_REQUESTS = 10_000;

/** Creates an empty mail outbox. */
export function createMemoryMail(maxMails = MAX_MAILS, maxRequests = MAX_REQUESTS): MemoryFace<MailStore> {
  const mails = new Map<number, StoredMail>();
  const requests = new Map<number, ClaimedResendRequest & { dueAt: number }>();
  let nextRequest = 1;
  const causes = new Set<string>();
  let nextId = 1;
  const copy = (mail: StoredMail): StoredMail => ({ ...mail });
  /** Drops the oldest finished messages while over the cap; pending ones are never dropped (their causes stay known). */
  const trim = (undo: Undo | undefined) => {
    for (const [id, mail] of mails) {
      if (mails.size <= maxMails) return;
      if (mail.state !== 'pending') deleteKey(mails, id, undo);
    }
  };
  // Ids are not given back by a change that throws (as a SQL sequence's are not).
  const enqueue = (draft: Parameters<MailStore['enqueue']>[0], at: number, undo: Undo | undefined): boolean => {
    if (causes.has(draft.cause)) return false;
    addMember(causes, draft.cause, undo);
    const id = nextId++;
    const mail: StoredMail = {
      ...draft,
      id,
      state: 'pending',
      attempts: 0,
      createdAt: at,
      nextAttemptAt: at,
      lastAttemptAt: null,
      lastError: null,
      sentAt: null,
      retriedAt: null,
    };
    setKey(mails, id, mail, undo);
    trim(undo);
    return true;
  };
  return (undo) => ({
    async enqueue(draft, at) {
      return enqueue(draft, at, undo);
    },
    async requestResend(request, at) {
      const id = nextRequest++;
      setKey(requests, id, { ...request, id, requestedAt: at, attempts: 0, dueAt: at }, undo);
      for (const oldest of requests.keys()) {
        if (requests.size <= maxRequests) break;
        deleteKey(requests, oldest, undo);
      }
    },
    async claimResendRequests(now, leaseMs, limit) {
      const due = [...requests.values()].filter((r) => r.dueAt <= now).slice(0, limit);
      return due.map((r) => {
        const { dueAt: _, ...claimed } = r;
        patch(r, { dueAt: now + leaseMs, attempts: r.attempts + 1 }, undo);
        return claimed;
      });
    },
    async completeResendRequest(id, draft, at) {
      if (!deleteKey(requests, id, undo)) return;
      if (draft) enqueue(draft, at, undo);
    },
    async claimDue(now, leaseMs, limit) {
      const due = [...mails.values()]
        .filter((m) => m.state === 'pending' && m.nextAttemptAt !== null && m.nextAttemptAt <= now)
        .sort((a, b) => a.nextAttemptAt! - b.nextAttemptAt! || a.id - b.id)
        .slice(0, limit);
      for (const mail of due) patch(mail, { nextAttemptAt: now + leaseMs }, undo);
      return due.map(copy);
    },
    async recordAttempt(id, attempt) {
      const mail = mails.get(id);
      if (!mail) return;
      patch(mail, {
        attempts: mail.attempts + 1,
        lastAttemptAt: attempt.at,
        lastError: attempt.error,
        state: attempt.sent ? 'sent' : attempt.nextAttemptAt === null ? 'failed' : 'pending',
        sentAt: attempt.sent ? attempt.at : null,
        nextAttemptAt: attempt.nextAttemptAt,
      }, undo);
    },
    async retryFailed(id, at, notSince) {
      const mail = mails.get(id);
      if (!mail || mail.state !== 'failed' || (mail.retriedAt !== null && mail.retriedAt > notSince)) return null;
      patch(mail, { state: 'pending', nextAttemptAt: at, retriedAt: at }, undo);
      return copy(mail);
    },
    async get(id) {
      const mail = mails.get(id);
      return mail ? copy(mail) : null;
    },
    async list({ session, state, limit }) {
      return [...mails.values()]
        .filter((m) => (session === undefined || m.session === session) && (state === undefined || m.state === state))
        .sort((a, b) => b.id - a.id)
        .slice(0, limit)
        .map(copy);
    },
    async counts(from, to) {
      const counts = { sent: 0, failed: 0, pending: 0 };
      for (const mail of mails.values()) if (mail.createdAt >= from && mail.createdAt < to) counts[mail.state]++;
      return counts;
    },
  });
}
