/**
 * The shipped-request mail through nodemailer to a real SMTP server on 127.0.0.1: text and HTML parts,
 * List-Unsubscribe and List-Unsubscribe-Post (RFC 8058), and the one-click POST a mail client sends to
 * that address stops the next one. The app runs in process on memory storage with the test's clock.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createSmtpSender } from '../../adapters/smtp/index.ts';
import { createMailWorker } from '../../core/mail/worker.ts';
import { operateOk, OPERATOR_TOKEN } from '../_operator.ts';
import { bodyJson, coreRequest, createTestApp } from '../_setup.ts';
import { startTestSmtp } from '../_smtp.ts';

const FROM = 'Legacy Sheet Converter <licenses@converter.test>';

test('the mail of a shipped request arrives with its text, HTML and one-click unsubscribe headers; the POST stops the next one', async () => {
  const smtp = await startTestSmtp();
  try {
    const t = await createTestApp({ operatorToken: OPERATOR_TOKEN });
    for (const description of ['Folders please', 'And subfolders']) {
      await t.app.handle(coreRequest({ method: 'POST', path: '/api/v1/feedback', json: { description, type: 'feature_request', email: 'ann@example.com' } }));
    }
    await operateOk(t.app, 'PUT', '/feedback/1/feature', { featureId: 3 });
    await operateOk(t.app, 'PUT', '/feedback/2/feature', { featureId: 4 });
    await operateOk(t.app, 'POST', '/releases', {
      version: '2.6.0',
      msiUrl: 'https://downloads.example.com/LegacySheetConverter-2.6.0-x64.msi',
      rolloutPercent: 100,
    });
    await operateOk(t.app, 'PATCH', '/roadmap/3', { release_version: '2.6.0' });
    assert.is(await t.app.processShippedRequests(), 1);
    const worker = createMailWorker({
      mail: t.storage.mail,
      sender: createSmtpSender(smtp.url),
      from: FROM,
      messageIdHost: 'converter.test',
      clock: t.clock,
      logger: t.logger,
      listUnsubscribe: t.app.listUnsubscribe,
    });
    assert.is(await worker.tick(), 1);
    await smtp.receivedCount(1);
    const [mail] = smtp.received;
    // The headers as sent (mailparser folds List-* into its own structure).
    const head = mail!.raw.slice(0, mail!.raw.indexOf('\r\n\r\n')).replaceAll(/\r\n[ \t]+/g, ' ');
    const address = /^List-Unsubscribe: <(http:\/\/localhost:8080\/api\/v1\/unsubscribe\?token=[A-Za-z0-9_.-]+)>$/im.exec(head)?.[1];
    assert.ok(address, head);
    assert.match(head, /^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/im);
    assert.equal(mail!.rcptTo, ['ann@example.com']);
    assert.is(mail!.parsed.subject, 'Batch conversion of whole folders: in Legacy Sheet Converter 2.6.0');
    assert.match(mail!.parsed.text ?? '', `To get no more messages like this one: ${address}`);
    assert.match(String(mail!.parsed.html), `You asked for <strong>Batch conversion of whole folders</strong> in Legacy Sheet Converter.`);
    // The mail client's one-click POST (RFC 8058) to the address, as the app answers it.
    const url = new URL(address);
    const post = await t.app.handle(
      coreRequest({
        method: 'POST',
        path: url.pathname,
        query: url.search.slice(1),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      }),
    );
    assert.equal([post.status, (bodyJson(post) as { unsubscribed: boolean }).unsubscribed], [200, true]);
    await operateOk(t.app, 'PATCH', '/roadmap/4', { release_version: '2.6.0' });
    assert.is(await t.app.processShippedRequests(), 0, 'unsubscribed: the second request is not told');
    assert.is(await worker.tick(), 0);
    assert.is(smtp.received.length, 1);
  } finally {
    await smtp.close();
  }
});

test.run();
