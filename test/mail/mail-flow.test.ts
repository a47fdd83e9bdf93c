/**
 * Mail end to end, on every storage: a purchase through the simulator in process (app.handle), the mail
 * worker sending through nodemailer to a real SMTP server on 127.0.0.1, the message read as received.
 * Deliveries are driven by explicit ticks and the test clock, never by sleeping.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createSmtpSender } from '../../adapters/smtp/index.ts';
import { createMailWorker, MAIL_RETRY_SCHEDULE_MS, type MailWorker } from '../../core/mail/worker.ts';
import { RESEND_ACCEPTED } from '../../core/schemas/licenses-resend.ts';
import { type InProcessOperator, startInProcessOperator } from '../_in-process.ts';
import { closeTestDatabases } from '../_databases.ts';
import { exampleContent, memoryLogger } from '../_setup.ts';
import { startTestSmtp, type TestSmtp } from '../_smtp.ts';
import { ALL_TARGETS, type OpenStorage } from '../storage/_targets.ts';

const FROM = 'Legacy Sheet Converter <licenses@converter.test>';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const JSON_TYPE = { 'content-type': 'application/json' };

interface Context {
  opened: OpenStorage;
  running: InProcessOperator;
  smtp: TestSmtp;
  worker: MailWorker;
  close(): Promise<void>;
}

type Keys = { standardLicenseKey: string | null; plusLicenseKey: string | null };

async function buy(c: Context, product: string, email: string, from = '127.0.0.2'): Promise<{ sessionId: string; keys: Keys }> {
  const { server } = c.running;
  const created = await server.request({ method: 'POST', path: '/api/v1/checkout/create', headers: JSON_TYPE, body: JSON.stringify({ product }), from });
  const { sessionId } = created.json() as { sessionId: string };
  const pay = await server.request({
    method: 'POST',
    path: `/checkout/simulator/${sessionId}/pay`,
    headers: FORM,
    body: `email=${encodeURIComponent(email)}&name=Ada&country=gb`,
    from,
  });
  assert.is(pay.status, 303);
  const status = await server.request({ path: `/api/v1/checkout/status?session_id=${sessionId}`, from });
  return { sessionId, keys: status.json() as Keys };
}

const resend = (c: Context, email: string, from = '127.0.0.3') =>
  c.running.server.request({ method: 'POST', path: '/api/v1/licenses/resend', headers: JSON_TYPE, body: JSON.stringify({ email }), from });

/** The license keys a text holds (compact v2 keys: groups of five, each on its own line), in order. */
const keysIn = (text: string) => [...text.matchAll(/^[0-9A-Z]{5}(?:-[0-9A-Z]{5}){3,}$/gm)].map((m) => m[0]);

for (const target of ALL_TARGETS) {
  const test = suite<Context>(`mail on ${target.name}`);

  test.before.each(async (c) => {
    c.opened = await target.open();
    c.smtp = await startTestSmtp();
    c.running = await startInProcessOperator({ storage: c.opened.storage, mail: { enabled: true }, simulator: { offer: exampleContent().offer } });
    c.worker = createMailWorker({
      mail: c.opened.storage.mail,
      sender: createSmtpSender(c.smtp.url),
      from: FROM,
      messageIdHost: 'converter.test',
      clock: c.running.server.clock,
      logger: memoryLogger(),
    });
  });
  test.after.each(async (c) => {
    await c.running.close();
    await c.smtp.close();
    await c.opened.close();
  });

  test('a purchase mails the keys checkout/status gives, once, as text and HTML', async (c) => {
    const { sessionId, keys } = await buy(c, 'plus_bundle', 'Ada@Example.com');
    assert.is(await c.worker.tick(), 1);
    assert.is(await c.worker.tick(), 0);
    assert.is(c.smtp.received.length, 1);
    const [{ parsed, rcptTo }] = c.smtp.received as [(typeof c.smtp.received)[0]];
    // The SMTP server writes the domain in lower case.
    assert.equal(rcptTo, ['Ada@example.com']);
    assert.is(parsed.from?.text, '"Legacy Sheet Converter" <licenses@converter.test>');
    assert.is(parsed.subject, 'Your Legacy Sheet Converter with Plus license key');
    assert.is(parsed.messageId, `<keys.${sessionId}@converter.test>`);
    const text = parsed.text ?? '';
    const html = typeof parsed.html === 'string' ? parsed.html : '';
    const expected = [keys.standardLicenseKey, keys.plusLicenseKey];
    assert.ok(expected.every((key) => typeof key === 'string'));
    for (const key of expected) {
      assert.ok(text.includes(key!), `the text part holds ${key}`);
      assert.ok(html.includes(`<code style="font-size:1.1em">${key}</code>`), `the HTML part holds ${key}`);
    }
    assert.match(text, 'Thank you for your order of Legacy Sheet Converter with Plus on 2026-11-21 (64.00 USD).');
    assert.match(text, 'Help > Enter license key');
    assert.match(html, 'Help &#62; Enter license key');
    assert.not.match(html, /<img|src=|https?:\/\//i);
    const mails = (await c.running.call(`/orders/${sessionId}/mails`)).json() as {
      mailOn: boolean;
      mails: { kind: string; state: string; attempts: number }[];
    };
    assert.equal([mails.mailOn, mails.mails.map((m) => [m.kind, m.state, m.attempts])], [true, [['keys', 'sent', 1]]]);
    assert.equal(((await c.running.call('/stats?days=1')).json() as { mail: unknown }).mail, { sent: 1, failed: 0, pending: 0 });
  });

  test('resend mails exactly the valid keys of the address after the resend step; an unknown address gets the same 202 and no mail', async (c) => {
    const kept = await buy(c, 'plus_bundle', 'bob@example.com');
    const revoked = await buy(c, 'standard', 'BOB@example.com');
    await buy(c, 'standard', 'someone-else@example.com');
    assert.is((await c.running.call(`/orders/${revoked.sessionId}/revoke`, { method: 'POST', json: { reason: 'refund by hand' } })).status, 200);
    assert.is(await c.worker.tick(), 4); // three purchases and the revoke notice
    const before = c.smtp.received.length;

    const known = await resend(c, 'bob@EXAMPLE.com');
    const unknown = await resend(c, 'nobody@example.com');
    const alias = await c.running.server.request({
      method: 'POST',
      path: '/api/licenses/resend',
      headers: JSON_TYPE,
      body: '{"email":"nobody@example.com"}',
      from: '127.0.0.3',
    });
    for (const answer of [known, unknown, alias]) {
      assert.is(answer.status, 202);
      assert.equal(answer.json(), RESEND_ACCEPTED);
      assert.is(answer.headers['content-type'], 'application/json');
      assert.ok(answer.headers['ratelimit-remaining'] !== undefined);
    }
    // Accepted, not yet looked up: nothing to send until the resend step (the server's mail loop) runs.
    assert.is(await c.worker.tick(), 0);
    assert.is(await c.running.server.app.processResendRequests(), 3);
    assert.is(await c.worker.tick(), 1);
    assert.is(c.smtp.received.length, before + 1);
    const got = c.smtp.received.at(-1)!;
    // To the address on file (of the newest valid order), not as the request typed it.
    assert.equal(got.rcptTo, ['bob@example.com']);
    assert.is(got.parsed.subject, 'Your Legacy Sheet Converter license keys');
    const text = got.parsed.text ?? '';
    assert.equal(keysIn(text).sort(), [kept.keys.standardLicenseKey!, kept.keys.plusLicenseKey!].sort());
    assert.not.match(text, revoked.keys.standardLicenseKey!);
    const notice = c.smtp.received.find((m) => m.parsed.subject === 'Your Legacy Sheet Converter license was revoked');
    assert.ok(notice, 'the revoke was mailed');
    assert.match(notice.parsed.text ?? '', revoked.keys.standardLicenseKey!);
  });

  test('SMTP down at fulfilment: the mail waits, nothing is lost, and it is sent once when SMTP is back', async (c) => {
    await c.smtp.stop();
    const { sessionId, keys } = await buy(c, 'standard', 'carol@example.com');
    assert.ok(keys.standardLicenseKey, 'the buyer still gets the keys on the page');
    assert.is(await c.worker.tick(), 1);
    const listed = async () =>
      ((await c.running.call(`/orders/${sessionId}/mails`)).json() as { mails: { state: string; attempts: number; lastError: string | null }[] }).mails;
    const [failed] = await listed();
    assert.equal([failed!.state, failed!.attempts], ['pending', 1]);
    assert.match(failed!.lastError ?? '', /ECONNREFUSED|connect/i);
    await c.smtp.start();
    // Not due before the first wait of the schedule.
    c.running.server.clock.advance(MAIL_RETRY_SCHEDULE_MS[0]! - 1);
    assert.is(await c.worker.tick(), 0);
    c.running.server.clock.advance(1);
    assert.is(await c.worker.tick(), 1);
    c.running.server.clock.advance(24 * 3_600_000);
    assert.is(await c.worker.tick(), 0);
    assert.is(c.smtp.received.length, 1);
    assert.match(c.smtp.received[0]!.parsed.text ?? '', keys.standardLicenseKey!);
    const [sent] = await listed();
    assert.equal([sent!.state, sent!.attempts], ['sent', 2]);
    assert.equal(((await c.running.call('/stats?days=2')).json() as { mail: unknown }).mail, { sent: 1, failed: 0, pending: 0 });
  });

  test('resend is limited: 5 requests per client an hour (429 with Retry-After), 3 mails per address a day', async (c) => {
    await buy(c, 'standard', 'dan@example.com');
    await c.worker.tick();
    const before = c.smtp.received.length;
    for (let i = 0; i < 4; i++) assert.is((await resend(c, 'dan@example.com', '127.0.0.4')).status, 202);
    assert.is((await resend(c, 'dan@example.com', '127.0.0.4')).status, 202);
    const refused = await resend(c, 'dan@example.com', '127.0.0.4');
    assert.is(refused.status, 429);
    assert.equal(refused.json(), {
      code: 'too_many_resends',
      message: 'Too many resend requests: at most 5 per hour per client.',
      resolution: 'Retry after the time in Retry-After; the keys of an address go to that address only.',
    });
    assert.ok(Number(refused.headers['retry-after']) > 0);
    assert.ok(refused.headers['ratelimit-policy'] !== undefined);
    await c.running.server.app.processResendRequests();
    await c.worker.tick();
    assert.is(c.smtp.received.length - before, 3);
  });

  // Each storage's suite closes the test databases it opened (the next one opens them again).
  test.after(closeTestDatabases);
  test.run();
}
