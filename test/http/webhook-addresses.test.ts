/**
 * Webhooks are never sent into this server's network (server-side request forgery): an endpoint whose
 * host is, or resolves to, a loopback, private, link-local or reserved address is refused at registration
 * (400 webhook_address_refused) and again at each delivery (DNS may change), unless the operator allows
 * the range; this server's own listeners never; and no redirect is followed. Every endpoint registered
 * here is on loopback (resolvers are stand-ins, sends are counted); the private and reserved ranges are
 * checked as bare address strings given to the classifier, never as an endpoint.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseCidrList } from '../../core/clients/cidr.ts';
import { addressRefusal, STRICT_WEBHOOK_ADDRESSES, type WebhookAddressPolicy } from '../../core/webhooks/address.ts';
import { createDeliveryWorker } from '../../core/webhooks/worker.ts';
import { guardedSender } from '../../server/webhook-addresses.ts';
import { type OperatorServer, startOperatorServer } from '../_operator.ts';

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

test('every loopback spelling is refused by default, at registration and at an edit', async () => {
  running = await startOperatorServer();
  const cases: [string, string][] = [
    ['http://127.0.0.1:8081/hooks', '127.0.0.1'],
    ['http://0x7f.1/hooks', '127.0.0.1'],
    ['http://[::1]/hooks', '::1'],
    ['http://[::ffff:127.0.0.9]/hooks', '127.0.0.9'],
    ['http://127.200.0.1/hooks', '127.200.0.1'],
    ['http://localhost:9000/hooks', '127.0.0.1'],
  ];
  for (const [url, address] of cases) {
    const answer = await running.call('/webhooks', { method: 'POST', json: { url } });
    assert.is(answer.status, 400, url);
    assert.equal(answer.json(), refusedBody(url, `${address} is a loopback, private, link-local or reserved address`), url);
  }
  const edited = await running.call('/webhooks/1', { method: 'PATCH', json: { url: 'http://127.0.0.2/hooks' } });
  assert.is(edited.status, 400);
  assert.equal(((await running.call('/webhooks')).json() as { endpoints: unknown[] }).endpoints, []);
});

test('private, link-local, reserved and unspecified addresses are non-public, however written (the classifier alone)', () => {
  const refused = (ip: string) => addressRefusal(STRICT_WEBHOOK_ADDRESSES, ip, 443);
  for (
    const [ip, canonical] of [['::ffff:192.168.1.1', '192.168.1.1'], ['169.254.169.254', '169.254.169.254'], ['10.1.2.3', '10.1.2.3'], ['0.0.0.0', '0.0.0.0'], [
      'fd00::1',
      'fd00::1',
    ]]
  ) {
    assert.is(refused(ip!), `${canonical} is a loopback, private, link-local or reserved address`, ip);
  }
  assert.is(refused('198.51.100.7'), '198.51.100.7 is a loopback, private, link-local or reserved address', 'documentation ranges are reserved');
  assert.is(addressRefusal({ allowed: parseCidrList('10.0.0.0/8') }, '10.1.2.3', 443), null, 'an allowed range');
  assert.is(
    addressRefusal({ allowed: parseCidrList('10.0.0.0/8'), isOwnListener: (ip, port) => ip === '10.0.0.8' && port === 8081 }, '10.0.0.8', 8081),
    '10.0.0.8 port 8081 is a listener of this server',
  );
});

test('a name that resolves to a refused address is refused; an allowed range is accepted; own listeners never', async () => {
  const addresses: WebhookAddressPolicy = {
    allowed: parseCidrList('127.0.0.2/32'),
    resolve: async (host) => (host === 'mixed.test' ? ['127.0.0.2', '127.0.0.3'] : ['127.0.0.2']),
    isOwnListener: (ip, port) => ip === '127.0.0.2' && port === 8081,
  };
  running = await startOperatorServer({ webhookAddresses: addresses });
  const mixed = await running.call('/webhooks', { method: 'POST', json: { url: 'https://mixed.test/hooks' } });
  assert.equal([mixed.status, mixed.json()], [
    400,
    refusedBody('https://mixed.test/hooks', 'mixed.test resolves to 127.0.0.3 is a loopback, private, link-local or reserved address'),
  ]);
  assert.is(
    (await running.call('/webhooks', { method: 'POST', json: { url: 'https://receiver.test/hooks' } })).status,
    201,
    'resolves into the allowed 127.0.0.2/32',
  );
  assert.is((await running.call('/webhooks', { method: 'POST', json: { url: 'http://127.0.0.2:9000/hooks' } })).status, 201);
  const own = await running.call('/webhooks', { method: 'POST', json: { url: 'http://127.0.0.2:8081/webhooks' } });
  assert.equal([own.status, own.json()], [400, refusedBody('http://127.0.0.2:8081/webhooks', '127.0.0.2 port 8081 is a listener of this server')]);
});

test('at delivery the address is checked again: a name that now resolves to a refused address is not sent to', async () => {
  let resolvesTo = '127.0.0.2';
  const addresses: WebhookAddressPolicy = { allowed: parseCidrList('127.0.0.2/32'), resolve: async () => [resolvesTo] };
  running = await startOperatorServer({ webhookAddresses: addresses });
  assert.is((await running.call('/webhooks', { method: 'POST', json: { url: 'https://hooks.test/in' } })).status, 201);
  resolvesTo = '127.0.0.3';
  await running.server.request({ method: 'POST', path: '/api/v1/feedback', headers: { 'content-type': 'application/json' }, body: '{"description":"hello"}' });
  let sent = 0;
  const logger = { info() {}, warn() {}, error() {} };
  const worker = createDeliveryWorker({
    outbox: running.server.storage.outbox,
    clock: running.server.clock,
    logger,
    addresses,
    fetch: async () => {
      sent++;
      return { status: 200 };
    },
  });
  assert.is(await worker.tick(), 1);
  assert.is(sent, 0, 'nothing sent');
  const [delivery] = ((await running.call('/webhooks/deliveries')).json() as { deliveries: { state: string; lastError: string }[] }).deliveries;
  assert.equal([delivery?.state, delivery?.lastError], [
    'pending',
    'refused: hooks.test resolves to 127.0.0.3 is a loopback, private, link-local or reserved address',
  ]);
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
    const init = {
      method: 'POST' as const,
      headers: { 'content-type': 'application/json' },
      body: '{}',
      signal: AbortSignal.timeout(60_000),
      redirect: 'manual' as const,
    };
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
