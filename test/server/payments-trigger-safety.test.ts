/**
 * `payments trigger` sends its signed test events only where it was told: a redirect from the target is
 * never followed (the events reach no other server; printed as refused, exit 1), and a live session id
 * (`cs_live_...`) is refused (64) unless `--live-session` says it is meant. Two plain HTTP servers on
 * 127.0.0.1 stand in for the target and for where a redirect points, each recording what reached it; the
 * command runs in process (test/_cli.ts), as it prints and exits.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { runCommand } from '../_cli.ts';

const SECRET = { STRIPE_WEBHOOK_SECRET: 'whsec_triggerSafety000000000000' };

interface Recorder {
  url: string;
  /** The method and path of each request that reached it. */
  seen: string[];
  close(): Promise<void>;
}

async function recorder(answer: (request: IncomingMessage, response: ServerResponse) => void): Promise<Recorder> {
  const seen: string[] = [];
  const server: Server = createServer((request, response) => {
    seen.push(`${request.method} ${request.url}`);
    request.resume();
    request.on('end', () => answer(request, response));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const test = suite('payments trigger safety');

test('a 308 from the target is printed as refused, exit 1, and the events reach nothing else', async () => {
  const elsewhere = await recorder((_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}'));
  const target = await recorder((_request, response) => response.writeHead(308, { location: `${elsewhere.url}/api/v1/webhooks/gateway` }).end());
  try {
    const run = await runCommand(['payments', 'trigger', 'refund', 'payment-completed', '--session', 'cs_test_a1', '--base-url', target.url], SECRET);
    assert.is(run.code, 1);
    assert.match(
      run.stderr,
      new RegExp(
        `^refund \\(charge\\.refunded evt_test_[0-9a-f]{32}\\) was refused: 308 a redirect to ${elsewhere.url}/api/v1/webhooks/gateway, not followed`,
      ),
    );
    assert.equal(target.seen, ['POST /api/v1/webhooks/gateway'], 'one event sent, then the run stopped');
    assert.equal(elsewhere.seen, [], 'nothing reached where the redirect pointed');
  } finally {
    await target.close();
    await elsewhere.close();
  }
});

test('a live session id is refused (64) without --live-session, and sent with it', async () => {
  const target = await recorder((_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}'));
  try {
    const refused = await runCommand(['payments', 'trigger', 'refund', '--session', 'cs_live_a1', '--base-url', target.url], SECRET);
    assert.is(refused.code, 64);
    assert.match(refused.stderr, 'cs_live_a1 is a live session: these are test events (livemode: false); add --live-session to send them about it');
    assert.equal(target.seen, []);
    const sent = await runCommand(['payments', 'trigger', 'refund', '--session', 'cs_live_a1', '--live-session', '--base-url', target.url, '--json'], SECRET);
    assert.is(sent.code, 0, sent.stderr);
    assert.equal((JSON.parse(sent.stdout) as { status: number }[]).map((s) => s.status), [200]);
    assert.equal(target.seen, ['POST /api/v1/webhooks/gateway']);
  } finally {
    await target.close();
  }
});

test.run();
