/**
 * Mail with deadlines, on every storage, through nodemailer to a real SMTP server on 127.0.0.1 that holds
 * its final reply to one message (a relay that drips its 250): the other mails go out meanwhile, the held
 * attempt ends at its deadline and is retried, and two instances on one storage deliver each message once.
 * The deadline fires on the test's clock (test/_deadlines.ts); the waits are for the SMTP server's events,
 * never a fixed time.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createSmtpSender, SMTP_TIMEOUTS } from '../../adapters/smtp/index.ts';
import { createMailWorker, MAIL_DEADLINE_MS, MAIL_RETRY_SCHEDULE_MS, type MailWorker } from '../../core/mail/worker.ts';
import type { MailDraft } from '../../core/ports/mail.ts';
import { startMailDelivery } from '../../server/mail-delivery.ts';
import { closeTestDatabases } from '../_databases.ts';
import { type ClockDeadlines, clockDeadlines } from '../_deadlines.ts';
import { type ManualClock, manualClock, memoryLogger } from '../_setup.ts';
import { type ReceivedMail, startTestSmtp, type TestSmtp } from '../_smtp.ts';
import { ALL_TARGETS, type OpenStorage } from '../storage/_targets.ts';

const FROM = 'Legacy Sheet Converter <licenses@converter.test>';
const SLOW = '<keys.cs_slow@converter.test>';

interface Context {
  opened: OpenStorage;
  smtp: TestSmtp;
  clock: ManualClock;
  deadlines: ClockDeadlines;
  logger: SentLog;
}

type SentLog = ReturnType<typeof memoryLogger> & {
  /** Resolves once `count` attempts in all were recorded as sent: the relay's 250 reached the client. */
  sentCount(count: number): Promise<void>;
};

/** A memory logger that can be waited on for its `mail sent` lines (no timer). */
function sentLog(): SentLog {
  const logger = memoryLogger();
  const waiting: { count: number; resolve: () => void }[] = [];
  const sent = () => logger.lines.filter((line) => line.message === 'mail sent').length;
  const check = () => {
    for (const wait of waiting.filter((w) => sent() >= w.count)) {
      waiting.splice(waiting.indexOf(wait), 1);
      wait.resolve();
    }
  };
  const info = logger.info;
  return Object.assign(logger, {
    info: (message: string, fields?: Record<string, unknown>) => {
      info(message, fields);
      check();
    },
    sentCount: (count: number) =>
      new Promise<void>((resolve) => {
        waiting.push({ count, resolve });
        check();
      }),
  });
}

const draft = (session: string): MailDraft => ({
  cause: `keys:${session}`,
  kind: 'keys',
  session,
  to: `${session}@example.com`,
  subject: `Keys of ${session}`,
  text: 'KEY\n',
  html: '<p>KEY</p>',
});

/** Writes the slow message first, then `others` more (cs_1, cs_2, ...). */
async function enqueue(c: Context, others: number, from = 1): Promise<void> {
  if (from === 1) await c.opened.storage.change((tx) => tx.mail.enqueue(draft('cs_slow'), c.clock.now()));
  for (let i = from; i < from + others; i++) await c.opened.storage.change((tx) => tx.mail.enqueue(draft(`cs_${i}`), c.clock.now()));
}

/** An instance's mail worker: its own SMTP client, deadlines on the test's clock. */
const worker = (c: Context): MailWorker =>
  createMailWorker({
    mail: c.opened.storage.mail,
    sender: createSmtpSender(c.smtp.url),
    from: FROM,
    messageIdHost: 'converter.test',
    clock: c.clock,
    logger: c.logger,
    abortAfter: c.deadlines.abortAfter,
  });

const ids = (mails: readonly ReceivedMail[]) => mails.map((m) => m.parsed.messageId).sort();

const settings = suite('mail deadline settings');
settings('the deadline is 60 s, the transport gives up on its own before it, and an ended attempt drops its socket', () => {
  assert.is(MAIL_DEADLINE_MS, 60_000);
  for (const timeout of [SMTP_TIMEOUTS.connectionTimeout, SMTP_TIMEOUTS.greetingTimeout, SMTP_TIMEOUTS.socketTimeout]) assert.ok(timeout < MAIL_DEADLINE_MS);
  assert.is(SMTP_TIMEOUTS.socketCloseTimeout, 0);
});
settings.run();

for (const target of ALL_TARGETS) {
  const test = suite<Context>(`mail deadlines on ${target.name}`);

  test.before.each(async (c) => {
    c.opened = await target.open();
    c.clock = manualClock();
    c.deadlines = clockDeadlines(c.clock);
    c.logger = sentLog();
    let held = false;
    // The relay holds its reply to the slow message's first delivery only.
    c.smtp = await startTestSmtp({ holdReply: (mail) => mail.parsed.messageId === SLOW && !held && (held = true) });
  });
  test.after.each(async (c) => {
    c.smtp.release();
    await c.smtp.close();
    await c.opened.close();
  });

  test('a relay slow to answer one message holds only that one: the others, and later ones, go out before its deadline', async (c) => {
    await enqueue(c, 5);
    const delivery = startMailDelivery({
      storage: c.opened.storage,
      sender: createSmtpSender(c.smtp.url),
      from: FROM,
      resendStep: async () => 0,
      clock: c.clock,
      logger: c.logger,
      intervalMs: 5,
      limits: { abortAfter: c.deadlines.abortAfter },
    });
    await c.smtp.heldCount(1);
    // Written while the slow one waits for its answer.
    await enqueue(c, 3, 6);
    // Sent, the relay's answers received: a deadline now could cut only the slow one.
    await c.logger.sentCount(8);
    // All eight went out while the slow message is still held: its deadline has not come.
    assert.equal(c.smtp.held.map((m) => m.parsed.messageId), [SLOW]);
    assert.equal(ids(c.smtp.received), Array.from({ length: 8 }, (_, i) => `<keys.cs_${i + 1}@converter.test>`).sort());

    const start = c.clock.now();
    c.deadlines.advance(MAIL_DEADLINE_MS);
    await delivery.stop();
    const [slow] = await c.opened.storage.mail.list({ session: 'cs_slow', limit: 1 });
    assert.equal([slow!.state, slow!.attempts, slow!.lastError, slow!.nextAttemptAt], [
      'pending',
      1,
      'not sent within the deadline of 60 s (aborted)',
      start + MAIL_DEADLINE_MS + MAIL_RETRY_SCHEDULE_MS[0]!,
    ]);
    // Retried on the schedule, and then sent.
    c.deadlines.advance(MAIL_RETRY_SCHEDULE_MS[0]!);
    assert.is(await worker(c).tick(), 1);
    assert.equal(ids(c.smtp.received), [...ids(c.smtp.received.slice(0, 8)), SLOW].sort());
    assert.equal(await c.opened.storage.mail.counts(0, Number.MAX_SAFE_INTEGER), { sent: 9, failed: 0, pending: 0 });
  });

  test('two instances on one storage deliver each message once while a relay holds one answer past the lease', async (c) => {
    await enqueue(c, 11);
    const [a, b] = [worker(c), worker(c)];
    // Instance A takes the slow message (and three more); the relay holds its answer.
    const aTick = a.tick();
    await c.smtp.heldCount(1);
    while ((await b.tick()) > 0);
    await c.logger.sentCount(11);
    // Leased: B does not take it while A's attempt can still finish.
    c.deadlines.advance(MAIL_DEADLINE_MS - 1);
    assert.is(await b.tick(), 0);
    // A's deadline ends its attempt (the connection dropped); the retry is due a minute later.
    c.deadlines.advance(1);
    assert.is(await aTick, 4);
    c.deadlines.advance(MAIL_RETRY_SCHEDULE_MS[0]! - 1);
    assert.is(await b.tick(), 0);
    c.deadlines.advance(1);
    assert.is(await b.tick(), 1);
    // A's held answer comes too late: its client is gone, the relay never took that copy.
    c.smtp.release();
    assert.equal(ids(c.smtp.dropped), [SLOW]);
    const received = ids(c.smtp.received);
    assert.is(received.length, 12);
    assert.equal(received, [...new Set(received)]);
    assert.ok(received.includes(SLOW));
    const [slow] = await c.opened.storage.mail.list({ session: 'cs_slow', limit: 1 });
    assert.equal([slow!.state, slow!.attempts], ['sent', 2]);
  });

  // Each storage's suite closes the test databases it opened (the next one opens them again).
  test.after(closeTestDatabases);
  test.run();
}
