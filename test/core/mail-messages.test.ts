import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { keysMail, mailSettings, resendMail } from '../../core/mail/messages.ts';
import { renderMail } from '../../core/mail/render.ts';
import { mailHtml } from '../../adapters/mail-html/index.ts';
import { GOOD_STANDING } from '../../core/ports/order-state.ts';
import { LIFETIME_KEYS } from '../../core/ports/port-types.ts';
import type { CheckoutSession, Purchase } from '../../core/ports/ports.ts';
import type { Order } from '../../core/ports/store-ports.ts';

const AT = Date.UTC(2026, 10, 21, 12, 0, 0);
const settings = mailSettings('Legacy Sheet Converter');
const session = (sku: CheckoutSession['sku']): CheckoutSession => ({
  id: `cs_${sku}`,
  sku,
  channel: null,
  url: 'u',
  state: 'paid',
  createdAt: AT,
  expiresAt: AT + 1,
});
const BUYER: Purchase = { email: 'ada@example.com', name: 'Ada', country: 'GB', paymentRef: 'pi_1', amount: '19.00', currency: 'USD' };

test('a Plus add-on mails its one key as an upgrade, its subject naming Plus once', () => {
  const mail = keysMail(settings, session('plus_addon'), { standard: null, plus: 'PLUS-KEY' }, BUYER, AT)!;
  assert.equal([mail.kind, mail.cause, mail.session, mail.to, mail.subject], [
    'upgrade',
    'keys:cs_plus_addon',
    'cs_plus_addon',
    'ada@example.com',
    'Your Legacy Sheet Converter Plus key',
  ]);
  assert.match(mail.text, 'Thank you for upgrading to Plus on 2026-11-21 (19.00 USD).\n\nYour Plus key:\n\nLegacy Sheet Converter Plus:\nPLUS-KEY\n');
});

test('no address, no mail', () => {
  assert.is(keysMail(settings, session('standard'), { standard: 'K', plus: null }, { ...BUYER, email: null }, AT), null);
});

test('the HTML part escapes every text, keeps paragraphs, and has no image, link or remote content', () => {
  const mail = renderMail(
    { subject: 'Keys for {product}\nBcc: x@example.com', body: 'Hi <b>there</b> & welcome.\n\n{keys}\nline two' },
    { product: 'A "<Tool>"', date: '', amount: '', session: '', howToEnter: '', keys: [{ label: 'A <Tool>', key: 'K&1' }] },
  );
  assert.is(mail.subject, 'Keys for A "<Tool>" Bcc: x@example.com');
  const html = mailHtml(mail.content);
  assert.match(
    html,
    '<p>Hi &#60;b&#62;there&#60;/b&#62; &#38; welcome.</p>\n<p>A &#60;Tool&#62;:<br>\n<code style="font-size:1.1em">K&#38;1</code><br>\nline two</p>',
  );
  assert.match(html, '<title>Keys for A &#34;&#60;Tool&#62;&#34; Bcc: x@example.com</title>');
  assert.not.match(html, /<img|<a |src=|url\(/i);
  assert.is(mail.text, 'Hi <b>there</b> & welcome.\n\nA <Tool>:\nK&1\nline two\n');
});

test('resend lists only the valid keys of paid orders, to the address on file', () => {
  const order = (id: string, over: Partial<Order> = {}): Order => ({
    session: { ...session('standard'), id },
    purchase: { ...BUYER, email: 'Ada@Example.com' },
    paidAt: AT,
    keys: { standard: `KEY-${id}`, plus: null },
    windows: LIFETIME_KEYS,
    standing: GOOD_STANDING,
    ...over,
  });
  const orders = [order('a'), order('b', { standing: { ...GOOD_STANDING, refunded: true } }), order('c', { keys: null })];
  const mail = resendMail(settings, 'ada@example.com', orders, 'resend:1')!;
  assert.equal([mail.to, mail.kind, mail.session], ['Ada@Example.com', 'resend', null]);
  assert.match(mail.text, 'Legacy Sheet Converter (order a, 2026-11-21):\nKEY-a\n');
  assert.not.match(mail.text, 'KEY-b');
  assert.is(resendMail(settings, 'ada@example.com', [orders[1]!, orders[2]!], 'resend:2'), null);
});

test.run();
