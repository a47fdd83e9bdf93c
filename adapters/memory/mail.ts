/**
 * The mail outbox in memory: messages as the SQL one keeps them (lost on restart, like everything in
 * memory storage), one per cause. At most `maxMails` are kept: the oldest finished ones go first. Resend
 * requests wait in a queue of at most `maxRequests` (the oldest dropped first when a flood fills it).
 *
 * @module
 */
import type { ClaimedResendRequest, MailStore, StoredMail } from '../../core/ports/mail.ts';
import { keep, type Restorable } from './change.ts';

const MAX_MAILS = 10_000;
const MAX_REQUESTS = 10_000;

/** Creates an empty mail outbox. */
export function createMemoryMail(maxMails = MAX_MAILS, maxRequests = MAX_REQUESTS): MailStore & Restorable {
  const mails = new Map<number, StoredMail>();
  const requests = new Map<number, ClaimedResendRequest & { dueAt: number }>();
  let nextRequest = 1;
  const causes = new Set<string>();
  let nextId = 1;
  const copy = (mail: StoredMail): StoredMail => ({ ...mail });
  /** Drops the oldest finished messages while over the cap; pending ones are never dropped (their causes stay known). */
  const trim = () => {
    for (const [id, mail] of mails) {
      if (mails.size <= maxMails) return;
      if (mail.state !== 'pending') mails.delete(id);
    }
  };
  const enqueue = (draft: Parameters<MailStore['enqueue']>[0], at: number): boolean => {
    if (causes.has(draft.cause)) return false;
    causes.add(draft.cause);
    const id = nextId++;
    mails.set(id, { ...draft, id, state: 'pending', attempts: 0, createdAt: at, nextAttemptAt: at, lastAttemptAt: null, lastError: null, sentAt: null });
    trim();
    return true;
  };
  return {
    snapshot() {
      const restore = keep(mails, requests, causes);
      const ids = { nextId, nextRequest };
      return () => {
        restore();
        ({ nextId, nextRequest } = ids);
      };
    },
    async enqueue(draft, at) {
      return enqueue(draft, at);
    },
    async requestResend(request, at) {
      const id = nextRequest++;
      requests.set(id, { ...request, id, requestedAt: at, attempts: 0, dueAt: at });
      for (const oldest of requests.keys()) {
        if (requests.size <= maxRequests) break;
        requests.delete(oldest);
      }
    },
    async claimResendRequests(now, leaseMs, limit) {
      const due = [...requests.values()].filter((r) => r.dueAt <= now).slice(0, limit);
      return due.map((r) => {
        const { dueAt: _, ...claimed } = r;
        r.dueAt = now + leaseMs;
        r.attempts++;
        return claimed;
      });
    },
    async completeResendRequest(id, draft, at) {
      if (!requests.delete(id)) return;
      if (draft) enqueue(draft, at);
    },
    async claimDue(now, leaseMs, limit) {
      const due = [...mails.values()]
        .filter((m) => m.state === 'pending' && m.nextAttemptAt !== null && m.nextAttemptAt <= now)
        .sort((a, b) => a.nextAttemptAt! - b.nextAttemptAt! || a.id - b.id)
        .slice(0, limit);
      for (const mail of due) mail.nextAttemptAt = now + leaseMs;
      return due.map(copy);
    },
    async recordAttempt(id, attempt) {
      const mail = mails.get(id);
      if (!mail) return;
      mail.attempts++;
      mail.lastAttemptAt = attempt.at;
      mail.lastError = attempt.error;
      mail.state = attempt.sent ? 'sent' : attempt.nextAttemptAt === null ? 'failed' : 'pending';
      mail.sentAt = attempt.sent ? attempt.at : null;
      mail.nextAttemptAt = attempt.nextAttemptAt;
    },
    async list({ session, limit }) {
      return [...mails.values()]
        .filter((m) => session === undefined || m.session === session)
        .sort((a, b) => b.id - a.id)
        .slice(0, limit)
        .map(copy);
    },
    async counts(from, to) {
      const counts = { sent: 0, failed: 0, pending: 0 };
      for (const mail of mails.values()) if (mail.createdAt >= from && mail.createdAt < to) counts[mail.state]++;
      return counts;
    },
  };
}
