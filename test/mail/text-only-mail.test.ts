/**
 * Text-only mail: an app given no HTML renderer (`createApp` without `mailHtml`) writes its mails with an
 * empty HTML part, and the SMTP sender sends them as one text/plain part, no empty HTML alternative (a real
 * SMTP server on 127.0.0.1, the message as received).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createSmtpSender } from '../../adapters/smtp/index.ts';
import { createMailWorker } from '../../core/mail/worker.ts';
import { createTestApp, memoryLogger } from '../_setup.ts';
import { startTestSmtp } from '../_smtp.ts';
import { buy } from './_buy.ts';

test('without a renderer the keys mail is sent as a single text part', async () => {
  const t = await createTestApp({ mailHtml: null });
  const smtp = await startTestSmtp();
  const sender = createSmtpSender(smtp.url);
  try {
    await buy(t);
    const [stored] = await t.storage.mail.list({ limit: 10 });
    assert.equal([stored?.kind, stored?.html], ['keys', '']);
    const worker = createMailWorker({
      mail: t.storage.mail,
      sender,
      from: 'shop@converter.test',
      messageIdHost: 'converter.test',
      clock: t.clock,
      logger: memoryLogger(),
    });
    assert.is(await worker.tick(), 1);
    const [received] = smtp.received;
    assert.is(received?.parsed.html, false);
    assert.is(received?.parsed.text, stored!.text);
    assert.match(received!.raw, /^Content-Type: text\/plain/im);
    assert.not.match(received!.raw, /text\/html|multipart/i);
  } finally {
    await sender.close?.();
    await smtp.close();
  }
});

test.run();
