/**
 * The outbox of the real program on its default storage (PGlite): a server killed with SIGKILL in the
 * middle of a burst of feedback, while the receiver is down, delivers a feedback.received event for every
 * submission it answered 201, once it runs again and the receiver is up, each verified by the
 * `standardwebhooks` package. The wait is for the receiver's requests, never a fixed time.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import { rmSync } from 'node:fs';
import { Webhook } from 'standardwebhooks';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type HttpResult, sendRequest } from '../_client.ts';
import { freshPgliteDir } from '../_databases.ts';
import { runCommand } from '../_cli.ts';
import { freePort, listeningLine, runCli, type ServerProcess, startServerProcess } from '../_spawn.ts';

const TOKEN = 'events-kill-operator-token-00000000000';
const BURST = 40;

test('on PGlite: SIGKILL during a burst while the receiver is down loses no event of an answered submission', async () => {
  const dataDir = await freshPgliteDir();
  const receiverPort = await freePort();
  const env = { DATA_DIR: dataDir, OPERATOR_PORT: '0', OPERATOR_TOKEN: TOKEN, WEBHOOK_ALLOW_NETWORKS: '127.0.0.1/32' };
  const received = new Map<string, { headers: Record<string, string>; body: string }>();
  const receiver = createServer((request: IncomingMessage, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      received.set(String(request.headers['webhook-id']), { headers: request.headers as Record<string, string>, body });
      response.writeHead(204).end();
      receiver.emit('stored');
    });
  });
  // Stopped in finally too: a failed assertion must not leave the program running (the test would hang).
  let server: ServerProcess | undefined;
  try {
    const first = (server = await startServerProcess(env));
    const operatorUrl = String(listeningLine(first.stdout())!['operator']);
    // The program itself, a child process, for the webhooks commands (test/server/webhooks-command.test.ts runs them in process).
    const added = await runCli(['webhooks', 'add', `http://127.0.0.1:${receiverPort}/hooks`, '--events', 'feedback.received'], {
      OPERATOR_URL: operatorUrl,
      OPERATOR_TOKEN: TOKEN,
    });
    assert.is(added.code, 0, added.stderr);
    const secret = /whsec_[A-Za-z0-9+/=]+/.exec(added.stdout)?.[0];
    assert.match(added.stdout, /^ID +STATE +FORMAT +EVENTS +URL +SECRET\n1 +on +standard +feedback\.received +http:\/\/127\.0\.0\.1:\d+\/hooks +whsec_/);

    const answered: string[] = [];
    let killed = false;
    await Promise.all(
      Array.from({ length: BURST }, async (_, i) => {
        const description = `kill note ${i}`;
        const result: HttpResult | null = await sendRequest(first.url, {
          method: 'POST',
          path: '/api/v1/feedback',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ description }),
          from: `127.0.9.${i + 1}`,
        }).catch(() => null);
        if (result?.status !== 201) return;
        answered.push(description);
        if (answered.length >= BURST / 4 && !killed) {
          killed = true;
          first.child.kill('SIGKILL');
        }
      }),
    );
    await first.exited;
    assert.ok(answered.length >= BURST / 4, `${answered.length} answered before the kill`);

    receiver.listen(receiverPort, '127.0.0.1');
    await once(receiver, 'listening');
    server = await startServerProcess(env);
    const descriptions = () => new Set([...received.values()].map((got) => (JSON.parse(got.body) as { data: { description: string } }).data.description));
    while (!answered.every((description) => descriptions().has(description))) await once(receiver, 'stored');
    for (const got of received.values()) new Webhook(secret!).verify(got.body, got.headers);
    const log = await runCommand(['webhooks', 'deliveries', '--state', 'delivered', '--json'], {
      OPERATOR_URL: String(listeningLine(server.stdout())!['operator']),
      OPERATOR_TOKEN: TOKEN,
    });
    assert.is(log.code, 0, log.stderr);
    // Submissions cut off before their answer may have committed too: at least every answered one is delivered.
    assert.ok((JSON.parse(log.stdout) as { deliveries: unknown[] }).deliveries.length >= answered.length);
    assert.is(await server.stop(), 0);
  } finally {
    await server?.stop();
    receiver.closeAllConnections();
    if (receiver.listening) await new Promise((resolve) => receiver.close(resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test.run();
