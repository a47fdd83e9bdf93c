/**
 * `converter-site-api orders failed-mails` and `orders retry-mail <id>` as an operator types them, in
 * process (test/_cli.ts), the operator API answered by the app: the failed mails as a table and as
 * --json, a retry queued, a second within the hour refused with its time (exit 1), and the usage mistakes.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { OPERATOR_TOKEN } from '../_operator.ts';
import { runCommand } from '../_cli.ts';
import { createTestApp, type TestApp } from '../_setup.ts';

/** Where the command finds the operator API: answered in process by the app, never on the network. */
const OPERATOR_URL = 'http://operator.test';
const orders = (t: TestApp, args: string[]) => runCommand(['orders', ...args], { OPERATOR_URL, OPERATOR_TOKEN }, { [OPERATOR_URL]: t.app.operator! });

/** An app with one mail the relay refused for good; its id. */
async function withFailedMail(): Promise<TestApp & { id: number }> {
  const t = await createTestApp({ operatorToken: OPERATOR_TOKEN });
  const now = t.clock.now();
  await t.storage.change((tx) =>
    tx.mail.enqueue({ cause: 'keys:cs_a', kind: 'keys', session: 'cs_a', to: 'ada@example.com', subject: 'Your key', text: 'KEY\n', html: '' }, now)
  );
  const [mail] = await t.storage.mail.claimDue(now, 60_000, 10);
  await t.storage.mail.recordAttempt(mail!.id, { at: now, error: '550 5.1.1 mailbox unavailable', sent: false, nextAttemptAt: null });
  return { ...t, id: mail!.id };
}

test('failed-mails lists them; retry-mail queues one; again within the hour is refused with when (exit 1)', async () => {
  const t = await withFailedMail();
  const at = new Date(t.clock.now()).toISOString();
  const listed = await orders(t, ['failed-mails']);
  assert.is(listed.code, 0, listed.stderr);
  assert.equal(listed.stdout.trimEnd().split('\n').map((line) => line.split(/ {2,}/)), [
    ['ID', 'WRITTEN', 'KIND', 'SESSION', 'TO', 'SENT AGAIN', 'LAST ERROR'],
    [String(t.id), at, 'keys', 'cs_a', 'ada@example.com', '-', '550 5.1.1 mailbox unavailable'],
  ]);
  const json = await orders(t, ['failed-mails', '--json', '--limit', '5']);
  assert.equal((JSON.parse(json.stdout) as { mails: { id: number; state: string }[] }).mails.map((m) => [m.id, m.state]), [[t.id, 'failed']]);
  const retried = await orders(t, ['retry-mail', String(t.id)]);
  assert.equal([retried.code, retried.stdout], [0, `queued mail ${t.id} (keys) to ada@example.com: Your key\n`]);
  assert.equal((await orders(t, ['failed-mails'])).stdout, 'no failed mails\n');
  const [claimed] = await t.storage.mail.claimDue(t.clock.now(), 60_000, 10);
  await t.storage.mail.recordAttempt(claimed!.id, { at: t.clock.now(), error: '550 again', sent: false, nextAttemptAt: null });
  const refused = await orders(t, ['retry-mail', String(t.id)]);
  assert.is(refused.code, 1);
  assert.is(
    refused.stderr,
    `converter-site-api orders: Mail ${t.id} was sent again at ${at}; it may be sent again from ${new Date(t.clock.now() + 3_600_000).toISOString()}. ` +
      '(mail_retried_recently; 409)\nFix what the lastError says (the relay, the address), then send it again after the time the message names.\n',
  );
});

test('usage mistakes exit 64: no mail id, a flag of another action', async () => {
  const t = await withFailedMail();
  const [noId, wrongFlag] = [await orders(t, ['retry-mail']), await orders(t, ['failed-mails', '--reason', 'x'])];
  assert.equal([noId.code, wrongFlag.code], [64, 64]);
  assert.match(noId.stderr, 'orders retry-mail needs a mail id (orders failed-mails lists them)');
  assert.match(wrongFlag.stderr, '--reason is not an option of orders failed-mails');
});

test.run();
