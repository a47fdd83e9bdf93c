/**
 * Outbound events over real sockets: endpoints registered through the operator API, events from public
 * and operator changes, sent by the delivery worker to a receiver on 127.0.0.1 and checked with the
 * `standardwebhooks` package as the oracle. A receiver that is down, then back, gets every event as
 * signed; the worker gives up after the schedule; a replay sends the same event again. Injected clock.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createDeliveryWorker, RETRY_SCHEDULE_MS, type DeliveryWorker } from '../../core/webhooks/worker.ts';
import { LOCAL_RECEIVERS, type OperatorServer, startOperatorServer } from '../_operator.ts';
import { exampleContent } from '../_setup.ts';

/** Receivers on this machine, allowed as WEBHOOK_ALLOW_NETWORKS allows them (every test receiver is on 127.0.0.1). */

interface Received {
  headers: Record<string, string>;
  body: string;
}

const test = suite('outbound events');
let running: OperatorServer;
let receiver: Server;
let receiverUrl: string;
let received: Received[];
let answer: number;
let worker: DeliveryWorker;
let logged: string[];

test.before.each(async () => {
  running = await startOperatorServer({ simulator: { offer: exampleContent().offer }, webhookAddresses: LOCAL_RECEIVERS });
  running.server.clock.set(Math.floor(Date.now() / 1000) * 1000);
  received = [];
  answer = 204;
  receiver = createServer((request: IncomingMessage, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      received.push({ headers: request.headers as Record<string, string>, body });
      response.writeHead(answer).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  logged = [];
  const logger = { info: () => {}, warn: (m: string) => void logged.push(`warn ${m}`), error: (m: string) => void logged.push(`error ${m}`), debug: () => {} };
  // Five events at once to the one receiver: more than the default share of an endpoint (4).
  worker = createDeliveryWorker({ outbox: running.server.storage.outbox, clock: running.server.clock, logger, perEndpoint: 5, addresses: LOCAL_RECEIVERS, fetch: (url, init) => fetch(url, init) });
});
test.after.each(async () => {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
  await running.close();
});

async function register(json: Record<string, unknown> = {}): Promise<{ id: number; secret: string }> {
  const added = await running.call('/webhooks', { method: 'POST', json: { url: receiverUrl, ...json } });
  assert.is(added.status, 201, added.text);
  return added.json() as { id: number; secret: string };
}

const postFeedback = (description: string) =>
  running.server.request({
    method: 'POST',
    path: '/api/v1/feedback',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'bug_report', description }),
  });

/** Checks a received request's signature with standardwebhooks: signing the same id, time and body gives the same header. */
function assertSigned(secret: string, got: Received): void {
  const expected = new Webhook(secret).sign(got.headers['webhook-id']!, new Date(Number(got.headers['webhook-timestamp']) * 1000), got.body);
  assert.is(got.headers['webhook-signature'], expected);
}

test('an event sent at once verifies with standardwebhooks; its body is the stored feedback', async () => {
  const { secret } = await register();
  assert.is((await postFeedback('The .wk4 import drops a sheet')).status, 201);
  assert.is(await worker.tick(), 1);
  assert.is(received.length, 1);
  const payload = new Webhook(secret).verify(received[0]!.body, received[0]!.headers) as { type: string; timestamp: string; data: Record<string, unknown> };
  const [entry] = ((await running.call('/feedback')).json() as { entries: { id: number; receivedAt: string }[] }).entries;
  assert.equal(payload, {
    type: 'feedback.received',
    timestamp: entry!.receivedAt,
    data: { id: entry!.id, type: 'bug_report', description: 'The .wk4 import drops a sheet', email: null, appVersion: null, rating: null, receivedAt: entry!.receivedAt },
  });
  assert.is(received[0]!.headers['content-type'], 'application/json');
  assert.is(await worker.tick(), 0, 'delivered once');
});

test('a receiver down for a while, then back, gets every event exactly once delivered, each attempt signed, same webhook-id', async () => {
  const { secret } = await register();
  answer = 503;
  for (const text of ['one', 'two', 'three']) assert.is((await postFeedback(text)).status, 201);
  const published = await running.call('/releases', { method: 'POST', json: { version: '2.6.0', msiUrl: 'https://downloads.example.com/2.6.0.msi', rolloutPercent: 10 } });
  assert.is(published.status, 201);
  assert.is((await running.call('/roadmap', { method: 'POST', json: { title: 'Symphony input', category: 'formats' } })).status, 201);
  assert.is(await worker.tick(), 5);
  running.server.clock.advance(RETRY_SCHEDULE_MS[0]! - 1);
  assert.is(await worker.tick(), 0, 'not before the retry time');
  running.server.clock.advance(1);
  assert.is(await worker.tick(), 5);
  type Logged = { attempts: number; lastStatus: number; lastError: string };
  const pending = ((await running.call('/webhooks/deliveries?state=pending')).json() as { deliveries: Logged[] }).deliveries;
  assert.equal(pending.map((d) => [d.attempts, d.lastStatus, d.lastError]), Array(5).fill([2, 503, 'the endpoint answered 503']));
  answer = 200;
  running.server.clock.advance(RETRY_SCHEDULE_MS[1]!);
  assert.is(await worker.tick(), 5);
  assert.is(received.length, 15);
  for (const got of received) assertSigned(secret, got);
  const byId = new Map<string, Received[]>();
  for (const got of received) byId.set(got.headers['webhook-id']!, [...(byId.get(got.headers['webhook-id']!) ?? []), got]);
  assert.is(byId.size, 5);
  for (const attempts of byId.values()) {
    assert.is(attempts.length, 3);
    assert.ok(attempts.every((got) => got.body === attempts[0]!.body), 'every attempt sends the same body');
  }
  const types = [...byId.values()].map((attempts) => (JSON.parse(attempts[0]!.body) as { type: string }).type).sort();
  assert.equal(types, ['feedback.received', 'feedback.received', 'feedback.received', 'release.published', 'roadmap.changed']);
  const delivered = ((await running.call('/webhooks/deliveries?state=delivered')).json() as { deliveries: unknown[] }).deliveries;
  assert.is(delivered.length, 5);
  assert.is(await worker.tick(), 0);
});

test('a receiver nobody listens at: the delivery log names the cause (ECONNREFUSED), not only "fetch failed"', async () => {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const { port } = closed.address() as AddressInfo;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  await register({ url: `http://127.0.0.1:${port}/gone` });
  assert.is((await postFeedback('nobody listens')).status, 201);
  assert.is(await worker.tick(), 1);
  type Logged = { url: string; lastStatus: number | null; lastError: string };
  const [logged] = ((await running.call('/webhooks/deliveries?state=pending')).json() as { deliveries: Logged[] }).deliveries;
  assert.equal([logged?.lastStatus, logged?.lastError], [null, 'fetch failed (ECONNREFUSED)']);
});

test('a receiver that never answers 2xx is given up after 8 attempts over more than 24 hours, logged, then replayed', async () => {
  const { secret } = await register({ events: ['feedback.received'] });
  answer = 500;
  const start = running.server.clock.now();
  assert.is((await postFeedback('lost?')).status, 201);
  assert.is(await worker.tick(), 1);
  for (const wait of RETRY_SCHEDULE_MS) {
    running.server.clock.advance(wait);
    assert.is(await worker.tick(), 1);
  }
  running.server.clock.advance(48 * 3600_000);
  assert.is(await worker.tick(), 0);
  assert.is(received.length, 8);
  assert.ok(Number(received[7]!.headers['webhook-timestamp']) * 1000 - start > 24 * 3600_000);
  assert.is(logged.filter((line) => line.startsWith('warn event delivery failed')).length, 7);
  assert.equal(logged.filter((line) => line.startsWith('error')), ['error event delivery given up: replay it through the operator API']);
  const [failed] = ((await running.call('/webhooks/deliveries?state=failed')).json() as { deliveries: { id: number; attempts: number }[] }).deliveries;
  assert.is(failed!.attempts, 8);

  answer = 204;
  const replayed = await running.call(`/webhooks/deliveries/${failed!.id}/replay`, { method: 'POST' });
  assert.is(replayed.status, 200);
  const again = replayed.json() as { state: string; attempts: number };
  assert.equal([again.state, again.attempts], ['pending', 0]);
  assert.is(await worker.tick(), 1);
  assert.is(received.length, 9);
  assert.is(received[8]!.headers['webhook-id'], received[0]!.headers['webhook-id']);
  assert.is(received[8]!.body, received[0]!.body);
  assertSigned(secret, received[8]!);
  const audit = ((await running.call('/audit')).json() as { entries: { action: string }[] }).entries;
  assert.equal(audit.map((e) => e.action), ['webhook.replayed', 'webhook.added']);
});

test('a Slack endpoint gets one line of text; a disabled endpoint and an unwanted type get nothing', async () => {
  const slack = await register({ format: 'slack', events: ['feedback.received'] });
  const off = await register();
  assert.is((await running.call(`/webhooks/${off.id}`, { method: 'PATCH', json: { enabled: false } })).status, 200);
  assert.is((await running.call('/roadmap', { method: 'POST', json: { title: 'Not for Slack', category: 'app' } })).status, 201);
  assert.is((await postFeedback('Row 8193 is cut off')).status, 201);
  assert.is(await worker.tick(), 1);
  const [entry] = ((await running.call('/feedback')).json() as { entries: { id: number }[] }).entries;
  assert.equal(JSON.parse(received[0]!.body), { text: `New bug report (#${entry!.id}): Row 8193 is cut off` });
  assertSigned(slack.secret, received[0]!);
  const endpoints = ((await running.call('/webhooks')).json() as { endpoints: Record<string, unknown>[] }).endpoints;
  assert.equal(endpoints.map((e) => [e['format'], e['enabled'], 'secret' in e]), [['slack', true, false], ['standard', false, false]]);
});

test('Slack text is escaped: public text mentions no channel and disguises no link', async () => {
  await register({ format: 'slack', events: ['feedback.received'] });
  assert.is((await postFeedback('<!channel> see <https://evil.example/login|your invoice> & pay')).status, 201);
  assert.is(await worker.tick(), 1);
  const [entry] = ((await running.call('/feedback')).json() as { entries: { id: number }[] }).entries;
  assert.equal(JSON.parse(received[0]!.body), {
    text: `New bug report (#${entry!.id}): &lt;!channel&gt; see &lt;https://evil.example/login|your invoice&gt; &amp; pay`,
  });
});

test('order.paid carries the keys the buyer sees; a refund and the operator revoke and reinstate, each once', async () => {
  const { secret } = await register({ events: ['order.paid', 'license.revoked', 'license.reinstated'] });
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const created = await running.server.request({ method: 'POST', path: '/api/v1/checkout/create', headers: { 'content-type': 'application/json' }, body: '{"product":"plus_bundle"}' });
  const { sessionId } = created.json() as { sessionId: string };
  const pay = await running.server.request({ method: 'POST', path: `/checkout/simulator/${sessionId}/pay`, headers: form, body: 'email=ada%40example.com&name=Ada&country=gb' });
  assert.is(pay.status, 303);
  const keys = (await running.server.request({ path: `/api/v1/checkout/status?session_id=${sessionId}` })).json() as Record<string, string>;
  const press = (action: string) => running.server.request({ method: 'POST', path: `/checkout/simulator/${sessionId}/${action}`, headers: form, body: '' });
  assert.is((await press('refund')).status, 303);
  // Revoked already: the operator's revoke changes no verdict and sends nothing; the reinstate does.
  assert.is((await running.call(`/orders/${sessionId}/revoke`, { method: 'POST', json: { reason: 'chargeback by mail' } })).status, 200);
  assert.is((await running.call(`/orders/${sessionId}/reinstate`, { method: 'POST', json: { reason: 'refund reversed' } })).status, 200);
  assert.is(await worker.tick(), 3);
  for (const got of received) assertSigned(secret, got);
  // Sent together, they may arrive in any order: sorted by type, as the outbox wrote them.
  const order = ['order.paid', 'license.revoked', 'license.reinstated'];
  const events = received
    .map((got) => JSON.parse(got.body) as { type: string; data: Record<string, unknown> })
    .sort((a, b) => order.indexOf(a.type) - order.indexOf(b.type));
  assert.equal(events.map((e) => e.type), order);
  assert.equal(events[0]!.data, {
    session: sessionId,
    product: 'plus_bundle',
    channel: null,
    buyer: { email: 'ada@example.com', name: 'Ada', country: 'GB' },
    amount: '64.00',
    currency: 'USD',
    keys: { standard: keys['standardLicenseKey'], plus: keys['plusLicenseKey'] },
  });
  assert.equal([events[1]!.data['cause'], events[2]!.data['why']], ['refund', 'by the operator: refund reversed']);
  assert.match(String(events[1]!.data['why']), 'simulator');
});

test('bad endpoint input is a clear 400 or 404', async () => {
  const cases: [string, string, unknown, number, string][] = [
    ['POST', '/webhooks', { url: 'ftp://example.com/x' }, 400, 'invalid_request'],
    ['POST', '/webhooks', { url: receiverUrl, events: ['order.shipped'] }, 400, 'invalid_request'],
    ['POST', '/webhooks', { url: receiverUrl, format: 'teams' }, 400, 'invalid_request'],
    ['PATCH', '/webhooks/1', {}, 400, 'invalid_request'],
    ['PATCH', '/webhooks/7', { enabled: false }, 404, 'endpoint_not_found'],
    ['POST', '/webhooks/deliveries/7/replay', undefined, 404, 'delivery_not_found'],
  ];
  for (const [method, path, json, status, code] of cases) {
    const got = await running.call(path, { method, json });
    assert.is(got.status, status, `${method} ${path}`);
    assert.is((got.json() as { code: string }).code, code);
  }
  assert.is((await running.call('/webhooks/deliveries?state=lost')).status, 400);
});

test.run();
