/**
 * The mails' HTML part is the mail-html adapter's: it renders a keys mail as the service always wrote it,
 * and an app given no renderer writes text-only mail (test/mail/text-only-mail.test.ts sends one).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mailHtml } from '../../adapters/mail-html/index.ts';
import { keysMail, mailSettings } from '../../core/mail/messages.ts';
import type { CheckoutSession, Purchase } from '../../core/ports/ports.ts';
import { createTestApp } from '../_setup.ts';
import { buy } from '../mail/_buy.ts';

const AT = Date.UTC(2026, 10, 21, 12, 0, 0);
const SESSION: CheckoutSession = { id: 'cs_1', sku: 'plus_bundle', channel: null, url: 'u', state: 'paid', createdAt: AT, expiresAt: AT + 1 };
const BUYER: Purchase = { email: 'ada@example.com', name: 'Ada', country: 'GB', paymentRef: 'pi_1', amount: '24.00', currency: 'USD' };

test('the adapter renders a keys mail as the service writes it: paragraphs, line breaks, keys as code, escaped', () => {
  const settings = mailSettings('Sheets & <Co>', false, {}, mailHtml);
  const mail = keysMail(settings, SESSION, { standard: 'AAAAA-BBBBB', plus: 'CCCCC-DDDDD' }, BUYER, AT)!;
  assert.is(
    mail.html,
    '<!doctype html>\n<html><head><meta charset="utf-8"><title>Your Sheets &#38; &#60;Co&#62; with Plus license key</title></head>\n' +
      '<body style="font-family:sans-serif;line-height:1.5">\n' +
      '<p>Thank you for your order of Sheets &#38; &#60;Co&#62; with Plus on 2026-11-21 (24.00 USD).</p>\n' +
      '<p>Your license:</p>\n' +
      '<p>Sheets &#38; &#60;Co&#62;:<br>\n<code style="font-size:1.1em">AAAAA-BBBBB</code></p>\n' +
      '<p>Sheets &#38; &#60;Co&#62; Plus:<br>\n<code style="font-size:1.1em">CCCCC-DDDDD</code></p>\n' +
      '<p>To enter a key: open the app, choose Help &#62; Enter license key, paste the key and choose Activate.</p>\n' +
      '<p>Keep this message: it is your proof of purchase. Order reference: cs_1.</p>\n' +
      '</body></html>\n',
  );
});

test('without a renderer a purchase writes its mail with an empty HTML part', async () => {
  const t = await createTestApp({ mailHtml: null });
  await buy(t);
  const [stored] = await t.storage.mail.list({ limit: 10 });
  assert.equal([stored?.kind, stored?.html], ['keys', '']);
  assert.match(stored!.text, 'Your license:\n\nLegacy Sheet Converter:\n');
});

test.run();
