/**
 * Mail from the real program on its default storage (PGlite): with the SMTP server down, orders are paid
 * and their keys shown; the server is killed with SIGKILL before any mail went out; once SMTP is up and the
 * server runs again, each order's keys arrive, each once, and so does a resend accepted (202) just before
 * the kill (the request is stored before the answer, its lookup done later). Without SMTP_URL the start says once that mail is
 * off. The waits are for the SMTP server's messages, never a fixed time.
 */
import { rmSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { sendRequest } from '../_client.ts';
import { freshPgliteDir } from '../_databases.ts';
import { logLines } from '../_log-lines.ts';
import { startTestSmtp } from '../_smtp.ts';
import { type ServerProcess, startServerProcess } from '../_spawn.ts';

const ORDERS = 3;

test('on PGlite: SIGKILL while SMTP is down loses no mail (nor an accepted resend), and each mails once when SMTP is back', async () => {
  const dataDir = await freshPgliteDir();
  const smtp = await startTestSmtp();
  await smtp.stop();
  // Stopped in finally too: a failed assertion must not leave the program running (the test would hang).
  let server: ServerProcess | undefined;
  try {
    const env = { DATA_DIR: dataDir, SMTP_URL: smtp.url };
    server = await startServerProcess(env);
    const on = logLines(server.stdout()).find((line) => line.message === 'mail is on');
    assert.equal(on?.['smtpHost'], new URL(smtp.url).host);
    assert.not.match(server.output(), 'p%40ss');
    const bought = new Map<string, string>();
    for (let i = 0; i < ORDERS; i++) {
      const email = `buyer${i}@example.com`;
      const created = await sendRequest(server.url, {
        method: 'POST',
        path: '/api/v1/checkout/create',
        headers: { 'content-type': 'application/json' },
        body: '{}',
        from: `127.0.8.${i + 1}`,
      });
      const { sessionId } = created.json() as { sessionId: string };
      const body = new URLSearchParams({ email }).toString();
      const paid = await sendRequest(server.url, {
        method: 'POST',
        path: `/checkout/simulator/${sessionId}/pay`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
      });
      assert.is(paid.status, 303);
      const status = (await sendRequest(server.url, { path: `/api/v1/checkout/status?session_id=${sessionId}` })).json() as { standardLicenseKey: string };
      bought.set(email, status.standardLicenseKey);
    }
    const resent = await sendRequest(server.url, {
      method: 'POST',
      path: '/api/v1/licenses/resend',
      headers: { 'content-type': 'application/json' },
      body: '{"email":"buyer0@example.com"}',
    });
    assert.is(resent.status, 202);
    server.child.kill('SIGKILL');
    await server.exited;
    assert.is(smtp.received.length, 0);

    await smtp.start();
    server = await startServerProcess(env);
    await smtp.receivedCount(ORDERS + 1);
    assert.is(await server.stop(), 0);
    assert.equal(smtp.received.map((m) => m.rcptTo[0]).sort(), [...bought.keys(), 'buyer0@example.com'].sort());
    assert.equal(smtp.received.filter((m) => m.parsed.subject === 'Your Legacy Sheet Converter license keys').map((m) => m.rcptTo[0]), ['buyer0@example.com']);
    for (const mail of smtp.received) assert.match(mail.parsed.text ?? '', bought.get(mail.rcptTo[0]!)!);
  } finally {
    await server?.stop();
    await smtp.close().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('without SMTP_URL the start says once that mail is off', async () => {
  const server = await startServerProcess({ STORAGE: 'memory' });
  try {
    const off = logLines(server.stdout()).filter((line) => line.message.startsWith('mail is off'));
    assert.equal(off.map((line) => line.message), ['mail is off: SMTP_URL is not set; mails are kept in the outbox and shown on the order pages, not sent']);
  } finally {
    assert.is(await server.stop(), 0);
  }
});

test.run();
