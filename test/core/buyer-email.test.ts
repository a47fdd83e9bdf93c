/**
 * One address per buyer email, wherever it enters mail: the simulator's Pay form refused nothing, and
 * its email went to the mail library as an address list (`a, b, c` mailed three people). In process on
 * memory storage; the SMTP sender's refusal comes before any connection.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createSmtpSender } from '../../adapters/smtp/index.ts';
import { keysMail, mailSettings, resendMail, upgradeMail, verdictMail } from '../../core/mail/messages.ts';
import { PermanentMailError } from '../../core/ports/mail.ts';
import { GOOD_STANDING } from '../../core/ports/order-state.ts';
import type { CheckoutSession, Purchase } from '../../core/ports/ports.ts';
import type { Order } from '../../core/ports/store-ports.ts';
import { isOneAddress } from '../../core/schemas/email-address.ts';
import { OPERATOR_TOKEN } from '../_operator.ts';
import { bodyJson, bodyText, coreRequest, createTestApp, type TestApp } from '../_setup.ts';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const RULE = 'must be one email address such as ada@example.com (no name, no brackets, no list)';

async function openSession(t: TestApp): Promise<string> {
  const created = await t.app.handle(coreRequest({ method: 'POST', path: '/api/v1/checkout/create', json: { product: 'standard' } }));
  return (bodyJson(created) as { sessionId: string }).sessionId;
}

const pay = (t: TestApp, id: string, email: string) =>
  t.app.handle(
    coreRequest({
      method: 'POST',
      path: `/checkout/simulator/${id}/pay`,
      headers: FORM,
      body: new URLSearchParams({ email, name: 'Ada', country: 'GB' }).toString(),
    }),
  );

const statusOf = async (t: TestApp, id: string) =>
  (bodyJson(await t.app.handle(coreRequest({ path: '/api/v1/checkout/status', query: `session_id=${id}` }))) as { status: string }).status;

test('the rule: one bare dot-atom address; lists, names, brackets, quotes, comments, spaces and literals are not', () => {
  for (const ok of ['ada@example.com', "o'brien+keys@mail.example.ie", '0@com', 'a.b-c_d@sub-1.example.co.uk', 'x!#$%&*/=?^`{|}~@example.com']) {
    assert.ok(isOneAddress(ok), ok);
  }
  for (
    const bad of [
      'a@x.com, b@y.com',
      'a@x.com;b@y.com',
      'Ada <ada@example.com>',
      '<ada@example.com>',
      '"a b"@example.com',
      'ada@example.com (Ada)',
      'ada @example.com',
      'ada@[127.0.0.1]',
      'a..b@example.com',
      '.a@example.com',
      'ada@-x.com',
      'ada@x-.com',
      'ada@example.com.',
      'adä@example.com',
      'ada@exämple.com',
      'ada',
      '@example.com',
      'a@b@c.com',
      'ada@example.com\n',
      'g: a@x.com, b@y.com;',
      `${'a'.repeat(310)}@example.com`,
    ]
  ) {
    assert.not.ok(isOneAddress(bad), bad);
  }
});

test('the simulator refuses a Pay whose email is a list or a named address: 400, the rule said, nothing paid, no mail', async () => {
  const t = await createTestApp();
  const id = await openSession(t);
  for (const email of ['a@example.com, b@example.com, c@example.com', 'Ada <ada@example.com>']) {
    const answer = await pay(t, id, email);
    assert.is(answer.status, 400, email);
    assert.is(answer.headers['content-type'], 'text/html; charset=utf-8');
    const shown = JSON.stringify(email).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
    assert.match(bodyText(answer), `<p id="refused" role="alert">The email ${shown} is refused: it ${RULE}. Nothing was paid.</p>`);
    assert.match(bodyText(answer), 'Pay (simulated)', 'the form is there to try again');
  }
  assert.is(await statusOf(t, id), 'pending');
  assert.equal(await t.storage.mail.list({ limit: 10 }), []);
  const paid = await pay(t, id, "o'brien@example.ie");
  assert.is(paid.status, 303);
  assert.is(await statusOf(t, id), 'paid');
  assert.equal((await t.storage.mail.list({ limit: 10 })).map((m) => [m.kind, m.to]), [['keys', "o'brien@example.ie"]]);
});

test('an address on file that is not one address (a provider gave a list) is mailed nothing, and an operator resend says why', async () => {
  const t = await createTestApp({ operatorToken: OPERATOR_TOKEN });
  const id = await openSession(t);
  await t.storage.checkouts.advanceCheckout(id, 'paid');
  const list = 'a@example.com, b@example.com';
  await t.storage.orders.recordPurchase(id, { email: list, name: null, country: null, paymentRef: 'pi_list', amount: null, currency: null }, t.clock.now());
  assert.is(await statusOf(t, id), 'paid');
  assert.equal(await t.storage.mail.list({ limit: 10 }), [], 'no keys mail');
  assert.equal(t.logger.lines.filter((l) => l.level === 'warn'), [{
    level: 'warn',
    message: 'keys not mailed: the buyer email is not one address',
    fields: { session: id, email: list },
  }]);
  const resend = await t.app.operator!.handle(
    coreRequest({ method: 'POST', path: `/orders/${id}/resend`, clientIp: '127.0.0.1', headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } }),
  );
  assert.is(resend.status, 409);
  assert.equal(bodyJson(resend), {
    code: 'order_without_email',
    message: `The email on file for ${id} is not one address: "a@example.com, b@example.com".`,
    resolution: 'Give the buyer the keys GET /orders/{session} shows by another way.',
  });
  assert.equal(await t.storage.mail.list({ limit: 10 }), []);
});

test('every mail of a buyer is null for an address that is not one address', () => {
  const at = Date.UTC(2026, 10, 21);
  const settings = mailSettings('Legacy Sheet Converter');
  const session: CheckoutSession = { id: 'cs_1', sku: 'standard', channel: null, url: 'u', state: 'paid', createdAt: at, expiresAt: at + 1 };
  const purchase: Purchase = { email: 'a@x.com, b@y.com', name: null, country: null, paymentRef: null, amount: null, currency: null };
  const order: Order = { session, purchase, paidAt: at, keys: { standard: 'K', plus: 'P' }, standing: GOOD_STANDING } as Order;
  assert.equal(
    [
      keysMail(settings, session, { standard: 'K', plus: null }, purchase, at),
      upgradeMail(settings, order, { standard: null, plus: 'P' }, at),
      verdictMail(settings, order, at),
      resendMail(settings, 'a@x.com', [order], 'c'),
    ],
    [null, null, null, null],
  );
});

test('the SMTP sender refuses a recipient that is not one address for good, before connecting', async () => {
  const sender = createSmtpSender('smtp://127.0.0.1:1');
  const mail = {
    id: 1,
    cause: 'c',
    kind: 'keys' as const,
    session: null,
    to: 'a@example.com, b@example.com',
    from: 'shop@example.com',
    subject: 's',
    text: 't',
    html: 'h',
    messageId: '<m@example.com>',
  };
  const error = await sender.send(mail as Parameters<typeof sender.send>[0]).then(() => null, (e: unknown) => e);
  assert.ok(error instanceof PermanentMailError, String(error));
  assert.is((error as Error).message, 'the recipient "a@example.com, b@example.com" is not one email address');
  await sender.close?.();
});

test.run();
