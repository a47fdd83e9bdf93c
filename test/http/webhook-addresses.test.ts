/**
 * Webhooks are never sent into this server's network (server-side request forgery): an endpoint whose
 * host is, or resolves to, a loopback, private, link-local or reserved address is refused at registration
 * (400 webhook_address_refused) and again at each delivery (DNS may change), unless the operator allows
 * the range; this server's own listeners never; and no redirect is followed. Non-loopback addresses
 * appear here only as strings: nothing connects to them (resolvers are stand-ins, sends are counted).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseCidrList } from '../../core/clients/cidr.ts';
import type { WebhookAddressPolicy } from '../../core/webhooks/address.ts';
import { createDeliveryWorker } from '../../core/webhooks/worker.ts';
import { guardedSender } from '../../server/webhook-addresses.ts';
import { startOperatorServer, type OperatorServer } from '../_operator.ts';

const test = suite('webhook addresses');
let running: OperatorServer | null = null;
test.after.each(async () => {
  await running?.close();
  running = null;
});

const refusedBody = (url: string, why: string) => ({
  code: 'webhook_address_refused',
  message: `Events are not sent to ${JSON.stringify(url)}: ${why}.`,
  resolution: "Give the receiver's public address; for a receiver on your own network, allow its range in WEBHOOK_ALLOW_NETWORKS.",
});

test('loopback, private, link-local and reserved addresses are refused by default, however written', async () => {
  running = await startOperatorServer();
  const cases: [string, string][] = [
    ['http://127.0.0.1:8081/hooks', '127.0.0.1'],
    ['http://0x7f.1/hooks', '127.0.0.1'],
    ['http://[::1]/hooks', '::1'],
    ['http://[::ffff:192.168.1.1]/hooks', '192.168.1.1'],
    ['http://169.254.169.254/latest/meta-data', '169.254.169.254'],
    ['https://10.1.2.3/hooks', '10.1.2.3'],
    ['http://localhost:9000/hooks', '127.0.0.1'],
    ['http://0.0.0.0/hooks', '0.0.0.0'],
  ];
  for (const [url, address] of cases) {
    const answer = await running.call('/webhooks', { method: 'POST', json: { url } });
    assert.is(answer.status, 400, url);
    assert.equal(answer.json(), refusedBody(url, `${address} is a loopback, private, link-local or reserved address`), url);
  }
  const edited = await running.call('/webhooks/1', { method: 'PATCH', json: { url: 'http://192.168.0.10/hooks' } });
  assert.is(edited.status, 400);
  assert.equal(((await running.call('/webhooks')).json() as { endpoints: unknown[] }).endpoints, []);
});

test('a name that resolves to a private address is refused; an allowed range is accepted; own listeners never', async () => {
  const addresses: WebhookAddressPolicy = {
    allowed: parseCidrList('10.0.0.0/8'),
    resolve: async (host) => (host === 'internal.example.com' ? ['203.0.113.200', '192.168.7.7'] : ['10.9.9.9']),
    isOwnListener: (ip, port) => ip === '10.0.0.8' && port === 8081,
  };
  running = await startOperatorServer({ webhookAddresses: addresses });
  const internal = await running.call('/webhooks', { method: 'POST', json: { url: 'https://internal.example.com/hooks' } });
  assert.equal([internal.status, internal.json()], [400, refusedBody('https://internal.example.com/hooks', 'internal.example.com resolves to 203.0.113.200 is a loopback, private, link-local or reserved address')]);
  assert.is((await running.call('/webhooks', { method: 'POST', json: { url: 'https://receiver.lan/hooks' } })).status, 201, 'resolves into the allowed 10.0.0.0/8');
  assert.is((await running.call('/webhooks', { method: 'POST', json: { url: 'http://10.0.0.8:9000/hooks' } })).status, 201);
  const own = await running.call('/webhooks', { method: 'POST', json: { url: 'http://10.0.0.8:8081/webhooks' } });
  assert.equal([own.status, own.json()], [400, refusedBody('http://10.0.0.8:8081/webhooks', '10.0.0.8 port 8081 is a listener of this server')]);
});

test('at delivery the address is checked again: a name that now resolves to a private address is not sent to', async () => {
  let resolvesTo = '198.51.100.1';
  const addresses: WebhookAddressPolicy = { allowed: parseCidrList('198.51.100.0/24'), resolve: async () => [resolvesTo] };
  running = await startOperatorServer({ webhookAddresses: addresses });
  assert.is((await running.call('/webhooks', { method: 'POST', json: { url: 'https://hooks.example.com/in' } })).status, 201);
  resolvesTo = '169.254.169.254';
  await running.server.request({ method: 'POST', path: '/api/v1/feedback', headers: { 'content-type': 'application/json' }, body: '{"description":"hello"}' });
  let sent = 0;
  const logger = { info() {}, warn() {}, error() {} };
  const worker = createDeliveryWorker({ outbox: running.server.storage.outbox, clock: running.server.clock, logger, addresses, fetch: async () => {
      sent++;
      return { status: 200 };
    },
  });
  assert.is(await worker.tick(), 1);
  assert.is(sent, 0, 'nothing sent');
  const [delivery] = ((await running.call('/webhooks/deliveries')).json() as { deliveries: { state: string; lastError: string }[] }).deliveries;
  assert.equal([delivery?.state, delivery?.lastError], ['pending', 'refused: hooks.example.com resolves to 169.254.169.254 is a loopback, private, link-local or reserved address']);
});

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

test("the server's sender follows no redirect, and checks the addresses a name resolves to as it connects", async () => {
  let followed = 0;
  const target = createServer((_request, response) => void (followed++, response.end()));
  const targetUrl = await listen(target);
  const redirecting = createServer((_request, response) => response.writeHead(307, { location: `${targetUrl}/stolen` }).end());
  const redirectingUrl = await listen(redirecting);
  try {
    const send = guardedSender({ allowed: parseCidrList('127.0.0.1/32') });
    const init = { method: 'POST' as const, headers: { 'content-type': 'application/json' }, body: '{}', signal: AbortSignal.timeout(60_000), redirect: 'manual' as const };
    assert.equal(await send(`${redirectingUrl}/hooks`, init), { status: 307 });
    assert.is(followed, 0, 'the redirect was not followed');
    const strict = guardedSender({ allowed: null });
    const port = new URL(targetUrl).port;
    try {
      await strict(`http://localhost:${port}/hooks`, init);
      assert.unreachable('sent to a loopback name');
    } catch (error) {
      assert.match(String(error), /refused: localhost resolves to (127\.0\.0\.1|::1) is a loopback, private, link-local or reserved address/);
    }
    assert.is(followed, 0, 'nothing reached the loopback receiver');
  } finally {
    target.close();
    redirecting.close();
  }
});

test.run();
