/**
 * Contract: the mail outbox. One message per cause (a second write of a cause is ignored); due messages are
 * leased, retried, sent or given up as the worker records them; listed by order, counted by state.
 */
import * as assert from './assert.ts';
import type { MailDraft } from '../../core/ports/mail.ts';
import { type ContractSuite, current, oneChangeEach } from './context.ts';

const T0 = Date.UTC(2026, 10, 25, 9, 30, 0, 123);
const draft = (cause: string, session: string | null = 'cs_1'): MailDraft => ({
  cause,
  kind: 'keys',
  session,
  to: 'Ada@example.com',
  subject: 'Your «key»',
  text: 'KEY-1\n',
  html: '<p>KEY-1</p>',
});

export function mailContract(test: ContractSuite): void {
  test('one message per cause, leased, retried, sent; listed by order and counted by state', async (context) => {
    const { mail } = oneChangeEach(current(context).storage);
    assert.is(await mail.enqueue(draft('keys:cs_1'), T0), true, 'a message is written with its cause: enqueue()');
    assert.is(await mail.enqueue(draft('keys:cs_1'), T0 + 5), false, 'a second write of a cause is ignored: enqueue()');
    assert.is(await mail.enqueue(draft('resend:r1', null), T0 + 10), true, 'another cause writes another message: enqueue()');
    const due = await mail.claimDue(T0 + 10, 60_000, 10);
    assert.equal(due.map((m) => [m.cause, m.state, m.attempts, m.nextAttemptAt]), [
      ['keys:cs_1', 'pending', 0, T0 + 10 + 60_000],
      ['resend:r1', 'pending', 0, T0 + 10 + 60_000],
    ], "a claimed mail's lease ends at its nextAttemptAt, oldest first, still pending: claimDue() [cause, state, attempts, nextAttemptAt]");
    assert.equal({ ...due[0]!, id: 0 }, {
      ...draft('keys:cs_1'),
      id: 0,
      state: 'pending',
      attempts: 0,
      createdAt: T0,
      nextAttemptAt: T0 + 10 + 60_000,
      lastAttemptAt: null,
      lastError: null,
      sentAt: null,
      retriedAt: null,
    }, 'a claimed message is every field as written, leased: claimDue()[0]');
    // Leased: not due again until the lease ends.
    assert.equal(await mail.claimDue(T0 + 20, 60_000, 10), [], 'a claimed mail is not due again before its lease ends: claimDue()');
    await mail.recordAttempt(due[0]!.id, { at: T0 + 30, error: 'connect ECONNREFUSED', sent: false, nextAttemptAt: T0 + 90 });
    await mail.recordAttempt(due[1]!.id, { at: T0 + 30, error: '550 no such user', sent: false, nextAttemptAt: null });
    const retried = await mail.claimDue(T0 + 90, 60_000, 10);
    assert.equal(
      retried.map((m) => [m.cause, m.attempts, m.lastError]),
      [['keys:cs_1', 1, 'connect ECONNREFUSED']],
      'a failed attempt is retried when due, attempts counted: claimDue() [cause, attempts, lastError]',
    );
    await mail.recordAttempt(retried[0]!.id, { at: T0 + 100, error: null, sent: true, nextAttemptAt: null });
    const listed = await mail.list({ session: 'cs_1', limit: 10 });
    assert.equal(
      listed.map((m) => [m.cause, m.state, m.attempts, m.sentAt, m.nextAttemptAt]),
      [['keys:cs_1', 'sent', 2, T0 + 100, null]],
      'a sent message is sent at its attempt, with no next attempt: list({ session }) [cause, state, attempts, sentAt, nextAttemptAt]',
    );
    assert.equal(
      (await mail.list({ limit: 10 })).map((m) => [m.cause, m.state]),
      [['resend:r1', 'failed'], ['keys:cs_1', 'sent']],
      'messages newest first; an attempt with no next one fails the message: list() [cause, state]',
    );
    assert.equal(await mail.counts(T0, T0 + 11), { sent: 1, failed: 1, pending: 0 }, 'messages written in the range, by state: counts()');
    assert.equal(await mail.counts(T0 + 1, T0 + 10), { sent: 0, failed: 0, pending: 0 }, 'the range is by time written, to excluded: counts()');
  });

  test('resend requests are recorded, leased oldest first, and completed once with their mail', async (context) => {
    const { mail } = oneChangeEach(current(context).storage);
    await mail.requestResend({ cause: 'resend:a', email: 'ada@example.com' }, T0);
    await mail.requestResend({ cause: 'resend:b', email: 'nobody@example.com' }, T0 + 1);
    // Not due before it was made.
    assert.equal(await mail.claimResendRequests(T0 - 1, 60_000, 10), [], 'a resend request is not due before it was made: claimResendRequests()');
    const first = await mail.claimResendRequests(T0 + 5, 60_000, 1);
    assert.equal(
      first.map((r) => ({ ...r, id: 0 })),
      [{ id: 0, cause: 'resend:a', email: 'ada@example.com', requestedAt: T0, attempts: 0 }],
      'resend requests are leased oldest first, at most the limit: claimResendRequests()',
    );
    const second = await mail.claimResendRequests(T0 + 5, 60_000, 10);
    assert.equal(second.map((r) => [r.cause, r.attempts]), [['resend:b', 0]], 'a leased request is not claimed again: claimResendRequests() [cause, attempts]');
    // Leased: a step that died leaves it to a claim after the lease.
    assert.equal(
      await mail.claimResendRequests(T0 + 5 + 59_999, 60_000, 10),
      [],
      'a claimed request is not due again before its lease ends: claimResendRequests()',
    );
    const again = await mail.claimResendRequests(T0 + 5 + 60_000, 60_000, 10);
    assert.equal(
      again.map((r) => [r.id, r.cause, r.attempts]),
      [[first[0]!.id, 'resend:a', 1], [second[0]!.id, 'resend:b', 1]],
      'after the lease, requests are claimed again, their claims counted: claimResendRequests() [id, cause, attempts]',
    );
    await mail.completeResendRequest(first[0]!.id, draft('resend:a', null), T0 + 70_000);
    await mail.completeResendRequest(second[0]!.id, null, T0 + 70_000);
    // A second completion of the same request (two steps after a lease ran out) writes nothing.
    await mail.completeResendRequest(first[0]!.id, draft('resend:a-again', null), T0 + 70_001);
    assert.equal(
      (await mail.list({ limit: 10 })).map((m) => [m.cause, m.state, m.createdAt]),
      [['resend:a', 'pending', T0 + 70_000]],
      'a second completion of a resend request writes no mail: list() [cause, state, createdAt]',
    );
    assert.equal(await mail.claimResendRequests(T0 + 10 * 60_000, 60_000, 10), [], 'a completed request is gone: claimResendRequests()');
  });

  test('a failed message is sent again once: pending, due at once, its cause and attempts kept; not again if it was retried after notSince', async (context) => {
    const { mail } = oneChangeEach(current(context).storage);
    await mail.enqueue(draft('keys:cs_1'), T0);
    await mail.enqueue(draft('keys:cs_2', 'cs_2'), T0);
    const [first, second] = await mail.claimDue(T0, 60_000, 10);
    await mail.recordAttempt(first!.id, { at: T0 + 1, error: '550 mailbox unavailable', sent: false, nextAttemptAt: null });
    await mail.recordAttempt(second!.id, { at: T0 + 1, error: null, sent: true, nextAttemptAt: null });
    assert.equal((await mail.list({ state: 'failed', limit: 10 })).map((m) => m.cause), ['keys:cs_1'], 'list by state: only the failed one');
    assert.equal(await mail.retryFailed(second!.id, T0 + 10, T0 - 3_600_000), null, 'a sent message is not sent again');
    assert.equal(await mail.retryFailed(first!.id + second!.id + 1, T0 + 10, T0), null, 'no such message');
    const retried = await mail.retryFailed(first!.id, T0 + 10, T0 + 10 - 3_600_000);
    assert.equal(
      retried && [retried.cause, retried.state, retried.attempts, retried.nextAttemptAt, retried.retriedAt, retried.lastError],
      ['keys:cs_1', 'pending', 1, T0 + 10, T0 + 10, '550 mailbox unavailable'],
      'the message afterwards: pending, due at once, retried at, attempts and last error kept',
    );
    assert.equal(await mail.get(first!.id), retried, 'get answers the message as stored');
    assert.equal(await mail.get(first!.id + second!.id + 1), null, 'get of no message: null');
    // It fails again; within the hour it is not sent again, after it it is.
    await mail.claimDue(T0 + 10, 60_000, 10);
    await mail.recordAttempt(first!.id, { at: T0 + 20, error: '550 again', sent: false, nextAttemptAt: null });
    assert.equal(await mail.retryFailed(first!.id, T0 + 30, T0 + 30 - 3_600_000), null, 'retried at T0 + 10, within the hour');
    assert.equal(
      (await mail.retryFailed(first!.id, T0 + 10 + 3_600_000, T0 + 10))?.retriedAt,
      T0 + 10 + 3_600_000,
      'retried at notSince, an hour before: again',
    );
  });
}
