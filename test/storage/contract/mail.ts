/**
 * Contract: the mail outbox. One message per cause (a second write of a cause is ignored); due messages are
 * leased, retried, sent or given up as the worker records them; listed by order, counted by state.
 */
import * as assert from 'uvu/assert';
import type { MailDraft } from '../../../core/ports/mail.ts';
import { current, type ContractSuite } from './context.ts';

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
  test('mail: one message per cause, leased, retried, sent; listed by order and counted by state', async (context) => {
    const { mail } = current(context).storage;
    assert.is(await mail.enqueue(draft('keys:cs_1'), T0), true);
    assert.is(await mail.enqueue(draft('keys:cs_1'), T0 + 5), false);
    assert.is(await mail.enqueue(draft('resend:r1', null), T0 + 10), true);
    const due = await mail.claimDue(T0 + 10, 60_000, 10);
    assert.equal(due.map((m) => [m.cause, m.state, m.attempts, m.nextAttemptAt]), [
      ['keys:cs_1', 'pending', 0, T0 + 10 + 60_000],
      ['resend:r1', 'pending', 0, T0 + 10 + 60_000],
    ]);
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
    });
    // Leased: not due again until the lease ends.
    assert.equal(await mail.claimDue(T0 + 20, 60_000, 10), []);
    await mail.recordAttempt(due[0]!.id, { at: T0 + 30, error: 'connect ECONNREFUSED', sent: false, nextAttemptAt: T0 + 90 });
    await mail.recordAttempt(due[1]!.id, { at: T0 + 30, error: '550 no such user', sent: false, nextAttemptAt: null });
    const retried = await mail.claimDue(T0 + 90, 60_000, 10);
    assert.equal(retried.map((m) => [m.cause, m.attempts, m.lastError]), [['keys:cs_1', 1, 'connect ECONNREFUSED']]);
    await mail.recordAttempt(retried[0]!.id, { at: T0 + 100, error: null, sent: true, nextAttemptAt: null });
    const listed = await mail.list({ session: 'cs_1', limit: 10 });
    assert.equal(listed.map((m) => [m.cause, m.state, m.attempts, m.sentAt, m.nextAttemptAt]), [['keys:cs_1', 'sent', 2, T0 + 100, null]]);
    assert.equal((await mail.list({ limit: 10 })).map((m) => [m.cause, m.state]), [['resend:r1', 'failed'], ['keys:cs_1', 'sent']]);
    assert.equal(await mail.counts(T0, T0 + 11), { sent: 1, failed: 1, pending: 0 });
    assert.equal(await mail.counts(T0 + 1, T0 + 10), { sent: 0, failed: 0, pending: 0 });
  });
}
