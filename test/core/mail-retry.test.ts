/**
 * The operator sends a failed mail again (GET /mails, POST /mails/{id}/retry), in process on memory
 * storage: the failed mails are listed; a retry puts one back to pending with its Message-ID (cause),
 * attempts and last error kept, audited; once an hour per mail; a sent or pending mail, or no mail, is
 * refused with its own error. Round five: a 5xx from the relay failed a mail for good and nothing told the
 * operator which mails to send again.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { operate, OPERATOR_TOKEN } from '../_operator.ts';
import { createTestApp, type TestApp } from '../_setup.ts';

const test = suite('mail retry');
const HOUR = 3_600_000;

/** An app with two mails: one failed (550 from the relay), one sent; their ids. */
async function withMails(): Promise<TestApp & { failed: number; sent: number }> {
  const t = await createTestApp({ operatorToken: OPERATOR_TOKEN });
  const now = t.clock.now();
  const draft = (cause: string) => ({
    cause,
    kind: 'keys' as const,
    session: `cs_${cause}`,
    to: 'ada@example.com',
    subject: 'Your key',
    text: 'KEY\n',
    html: '<p>KEY</p>',
  });
  await t.storage.change(async (tx) => {
    await tx.mail.enqueue(draft('a'), now);
    await tx.mail.enqueue(draft('b'), now);
  });
  const [a, b] = await t.storage.mail.claimDue(now, 60_000, 10);
  await t.storage.mail.recordAttempt(a!.id, { at: now, error: '550 5.1.1 mailbox unavailable', sent: false, nextAttemptAt: null });
  await t.storage.mail.recordAttempt(b!.id, { at: now, error: null, sent: true, nextAttemptAt: null });
  return { ...t, failed: a!.id, sent: b!.id };
}

test('GET /mails lists the failed mails with what the relay said', async () => {
  const t = await withMails();
  const at = new Date(t.clock.now()).toISOString();
  const listed = await operate(t.app, 'GET', '/mails');
  assert.is(listed.status, 200);
  assert.equal(listed.body, {
    mails: [{
      id: t.failed,
      kind: 'keys',
      session: 'cs_a',
      to: 'ada@example.com',
      subject: 'Your key',
      text: 'KEY\n',
      html: '<p>KEY</p>',
      state: 'failed',
      attempts: 1,
      createdAt: at,
      nextAttemptAt: null,
      sentAt: null,
      lastError: '550 5.1.1 mailbox unavailable',
      retriedAt: null,
    }],
  });
  for (const query of ['state=sent', 'limit=201', 'limit=0']) {
    const refused = await operate(t.app, 'GET', `/mails?${query}`);
    assert.equal([refused.status, refused.body['code']], [400, 'invalid_request'], query);
  }
});

test('a retry puts the failed mail back to pending, due at once, audited; the worker can take it', async () => {
  const t = await withMails();
  t.clock.advance(60_000);
  const now = t.clock.now();
  const retried = await operate(t.app, 'POST', `/mails/${t.failed}/retry`);
  assert.is(retried.status, 202);
  assert.equal(
    [retried.body['state'], retried.body['attempts'], retried.body['nextAttemptAt'], retried.body['retriedAt'], retried.body['lastError']],
    ['pending', 1, new Date(now).toISOString(), new Date(now).toISOString(), '550 5.1.1 mailbox unavailable'],
  );
  assert.equal((await operate(t.app, 'GET', '/mails')).body, { mails: [] }, 'no longer failed');
  const claimed = await t.storage.mail.claimDue(now, 60_000, 10);
  assert.equal(claimed.map((m) => [m.id, m.cause]), [[t.failed, 'a']], 'the same mail, the same cause (Message-ID)');
  const audit = (await operate(t.app, 'GET', '/audit?action=mail.')).body as { entries: { action: string; target: string }[] };
  assert.equal(audit.entries.map((e) => [e.action, e.target]), [['mail.retried', `${t.failed}: keys of cs_a`]]);
});

test('once an hour per mail: a second retry within the hour is 409 mail_retried_recently, saying when', async () => {
  const t = await withMails();
  const first = t.clock.now();
  assert.is((await operate(t.app, 'POST', `/mails/${t.failed}/retry`)).status, 202);
  const [claimed] = await t.storage.mail.claimDue(first, 60_000, 10);
  await t.storage.mail.recordAttempt(claimed!.id, { at: first + 1000, error: '550 again', sent: false, nextAttemptAt: null });
  t.clock.advance(HOUR - 1);
  const refused = await operate(t.app, 'POST', `/mails/${t.failed}/retry`);
  assert.is(refused.status, 409);
  assert.equal(refused.body, {
    code: 'mail_retried_recently',
    message: `Mail ${t.failed} was sent again at ${new Date(first).toISOString()}; it may be sent again from ${new Date(first + HOUR).toISOString()}.`,
    resolution: 'Fix what the lastError says (the relay, the address), then send it again after the time the message names.',
  });
  t.clock.advance(1);
  assert.is((await operate(t.app, 'POST', `/mails/${t.failed}/retry`)).status, 202, 'an hour after the last retry');
});

test('a sent mail is 409 mail_not_failed; no such mail 404 mail_not_found; nothing is audited', async () => {
  const t = await withMails();
  const sent = await operate(t.app, 'POST', `/mails/${t.sent}/retry`);
  assert.equal([sent.status, sent.body['code'], sent.body['message']], [409, 'mail_not_failed', `Mail ${t.sent} is sent, not failed.`]);
  for (const id of ['999', 'abc', '0']) {
    const missing = await operate(t.app, 'POST', `/mails/${id}/retry`);
    assert.equal([missing.status, missing.body['code']], [404, 'mail_not_found'], id);
  }
  const audit = (await operate(t.app, 'GET', '/audit?action=mail.')).body as { entries: unknown[] };
  assert.equal(audit.entries, []);
});

test.run();
