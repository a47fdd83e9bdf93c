/**
 * Outbound events over real sockets: endpoints registered through the operator API, events from public
 * and operator changes, sent by the delivery worker to a receiver on 127.0.0.1 and checked with the
 * `standardwebhooks` package as the oracle. A receiver that is down, then back, gets every event as
 * signed; the worker gives up after the schedule; a replay sends the same event again. The upkeep: a
 * test event, a deleted endpoint, a rotated secret with its grace period, every failed delivery replayed
 * after an outage. Injected clock.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createDeliveryWorker, type DeliveryWorker, RETRY_SCHEDULE_MS } from '../../core/webhooks/worker.ts';
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
  worker = createDeliveryWorker({
    outbox: running.server.storage.outbox,
    clock: running.server.clock,
    logger,
    perEndpoint: 5,
    addresses: LOCAL_RECEIVERS,
    fetch: (url, init) => fetch(url, init),
  });
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
    data: {
      id: entry!.id,
      type: 'bug_report',
      description: 'The .wk4 import drops a sheet',
      email: null,
      appVersion: null,
      rating: null,
      receivedAt: entry!.receivedAt,
    },
  });
  assert.is(received[0]!.headers['content-type'], 'application/json');
  assert.is(await worker.tick(), 0, 'delivered once');
});

test("a tick beside the loop's start takes no more than an endpoint's share: the second claim waits for the first", async () => {
  await register();
  for (let i = 0; i < 6; i++) assert.is((await postFeedback(`Sheet ${i} is lost`)).status, 201);
  // The receiver holds every answer until released, so the attempts stay under way.
  const held: (() => void)[] = [];
  let holding = true;
  receiver.removeAllListeners('request');
  receiver.on('request', (request: IncomingMessage, response) => {
    request.resume();
    request.on('end', () => {
      received.push({ headers: request.headers as Record<string, string>, body: '' });
      const answer = () => response.writeHead(204).end();
      if (holding) held.push(answer);
      else answer();
    });
  });
  const shared = createDeliveryWorker({
    outbox: running.server.storage.outbox,
    clock: running.server.clock,
    logger: { info: () => {}, warn: () => {}, error: () => {} },
    perEndpoint: 2,
    addresses: LOCAL_RECEIVERS,
    fetch: (url, init) => fetch(url, init),
  });
  const [first, second] = await Promise.all([shared.start(), shared.start()]);
  assert.equal([first, second], [2, 0]);
  while (received.length < 2) await new Promise((resolve) => setImmediate(resolve));
  assert.is(await shared.start(), 0, 'the share stays taken while both are under way');
  assert.is(received.length, 2);
  holding = false;
  for (const release of held.splice(0)) release();
  await shared.settled();
  assert.is(await shared.tick(), 2, 'the next two once the first are answered');
});

test('a receiver down for a while, then back, gets every event exactly once delivered, each attempt signed, same webhook-id', async () => {
  const { secret } = await register();
  answer = 503;
  for (const text of ['one', 'two', 'three']) assert.is((await postFeedback(text)).status, 201);
  const published = await running.call('/releases', {
    method: 'POST',
    json: { version: '2.6.0', msiUrl: 'https://downloads.example.com/2.6.0.msi', rolloutPercent: 10 },
  });
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
  const created = await running.server.request({
    method: 'POST',
    path: '/api/v1/checkout/create',
    headers: { 'content-type': 'application/json' },
    body: '{"product":"plus_bundle"}',
  });
  const { sessionId } = created.json() as { sessionId: string };
  const pay = await running.server.request({
    method: 'POST',
    path: `/checkout/simulator/${sessionId}/pay`,
    headers: form,
    body: 'email=ada%40example.com&name=Ada&country=gb',
  });
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

type Audit = { entries: { action: string; target: string }[] };
type LoggedDelivery = { id: number; type: string; state: string; attempts: number; eventId: string; endpointId: number };
const deliveriesOf = async (query = '') => ((await running.call(`/webhooks/deliveries${query}`)).json() as { deliveries: LoggedDelivery[] }).deliveries;

test('a test event reaches its one endpoint, signed like every event, and is in the delivery log', async () => {
  const { id, secret } = await register({ events: ['release.published'] });
  const other = await register();
  const sent = await running.call(`/webhooks/${id}/test`, { method: 'POST' });
  assert.is(sent.status, 202, sent.text);
  const delivery = sent.json() as LoggedDelivery;
  assert.equal([delivery.type, delivery.state, delivery.endpointId], ['webhook.test', 'pending', id]);
  assert.is(await worker.tick(), 1, 'to that endpoint only');
  const payload = new Webhook(secret).verify(received[0]!.body, received[0]!.headers);
  assert.equal(payload, {
    type: 'webhook.test',
    timestamp: new Date(running.server.clock.now()).toISOString(),
    data: { endpointId: id, message: 'A test event sent by the operator: nothing happened.' },
  });
  assert.is(received[0]!.headers['webhook-id'], delivery.eventId);
  assert.equal((await deliveriesOf()).map((d) => [d.id, d.type, d.state, d.endpointId]), [[delivery.id, 'webhook.test', 'delivered', id]]);
  const audit = ((await running.call('/audit')).json() as Audit).entries;
  assert.equal(audit[0], { ...audit[0]!, action: 'webhook.tested', target: `${id}: ${delivery.eventId} to ${receiverUrl}` });
  assert.is((await running.call(`/webhooks/${other.id}`, { method: 'PATCH', json: { enabled: false } })).status, 200);
  const refused = await running.call(`/webhooks/${other.id}/test`, { method: 'POST' });
  assert.equal([refused.status, (refused.json() as { code: string }).code], [409, 'endpoint_disabled']);
});

test('a deleted endpoint is sent nothing more: its pending deliveries and its log go with it; the others are untouched', async () => {
  const gone = await register();
  const kept = await register();
  answer = 503;
  assert.is((await postFeedback('before the delete')).status, 201);
  assert.is(await worker.tick(), 2);
  assert.is((await postFeedback('not yet sent')).status, 201);
  const deleted = await running.call(`/webhooks/${gone.id}`, { method: 'DELETE' });
  assert.is(deleted.status, 200, deleted.text);
  const body = deleted.json() as { deleted: { id: number; url: string }; droppedDeliveries: number };
  assert.equal([body.deleted.id, body.deleted.url, body.droppedDeliveries], [gone.id, receiverUrl, 2]);
  answer = 204;
  received = [];
  running.server.clock.advance(RETRY_SCHEDULE_MS[0]!);
  assert.is(await worker.tick(), 2, "only the kept endpoint's two");
  for (const got of received) assertSigned(kept.secret, got);
  assert.equal((await deliveriesOf()).map((d) => d.endpointId), [kept.id, kept.id]);
  assert.equal(((await running.call('/webhooks')).json() as { endpoints: { id: number }[] }).endpoints.map((e) => e.id), [kept.id]);
  assert.is((await running.call(`/webhooks/${gone.id}`, { method: 'DELETE' })).status, 404);
  const [entry] = ((await running.call('/audit')).json() as Audit).entries;
  assert.equal([entry!.action, entry!.target], ['webhook.deleted', `${gone.id}: ${receiverUrl} (2 deliveries deleted)`]);
});

test('a rotated secret: the new one is shown once and signs at once; the old one verifies too until its grace period ends', async () => {
  const { id, secret: old } = await register();
  const rotated = await running.call(`/webhooks/${id}/rotate-secret`, { method: 'POST', json: { graceHours: 1 } });
  assert.is(rotated.status, 200, rotated.text);
  const { secret, previousSecretValidUntil } = rotated.json() as { secret: string; previousSecretValidUntil: string };
  assert.match(secret, /^whsec_/);
  assert.is(previousSecretValidUntil, new Date(running.server.clock.now() + 3_600_000).toISOString());
  assert.not.ok('secret' in ((await running.call('/webhooks')).json() as { endpoints: Record<string, unknown>[] }).endpoints[0]!, 'never shown again');
  const sendOne = async () => {
    received = [];
    assert.is((await running.call(`/webhooks/${id}/test`, { method: 'POST' })).status, 202);
    assert.is(await worker.tick(), 1);
    return received[0]!;
  };
  const during = await sendOne();
  assert.is(during.headers['webhook-signature']!.split(' ').length, 2);
  for (const key of [secret, old]) assert.ok(new Webhook(key).verify(during.body, during.headers), 'either secret verifies during the grace period');
  // Past the grace period (the clock moved an hour: the signatures are compared as a library signs them).
  running.server.clock.advance(3_600_000);
  const after = await sendOne();
  const signedWith = (key: string) =>
    new Webhook(key).sign(after.headers['webhook-id']!, new Date(Number(after.headers['webhook-timestamp']) * 1000), after.body);
  assert.equal(after.headers['webhook-signature']!.split(' '), [signedWith(secret)], 'the new secret only');
  assert.is.not(signedWith(old), signedWith(secret));
  // With no grace, the old secret ends at once.
  const again = (await (await running.call(`/webhooks/${id}/rotate-secret`, { method: 'POST', json: { graceHours: 0 } })).json()) as {
    secret: string;
    previousSecretValidUntil: null;
  };
  assert.is(again.previousSecretValidUntil, null);
  const now = await sendOne();
  assert.is(now.headers['webhook-signature']!.split(' ').length, 1);
  assertSigned(again.secret, now);
  const audit = ((await running.call('/audit')).json() as Audit).entries.filter((e) => e.action === 'webhook.secret_rotated');
  assert.equal(audit.map((e) => e.target), [
    `${id}: ${receiverUrl} (old secret ended at once)`,
    `${id}: ${receiverUrl} (old secret valid until ${previousSecretValidUntil})`,
  ]);
});

test('after an outage, one call replays every failed delivery (only failed ones), with one audit row counting them', async () => {
  const { secret } = await register();
  answer = 503;
  for (const text of ['one', 'two', 'three']) assert.is((await postFeedback(text)).status, 201);
  assert.is(await worker.tick(), 3);
  for (const wait of RETRY_SCHEDULE_MS) {
    running.server.clock.advance(wait);
    assert.is(await worker.tick(), 3);
  }
  answer = 204;
  assert.is((await postFeedback('after the outage')).status, 201);
  assert.is(await worker.tick(), 1);
  const failed = await deliveriesOf('?state=failed');
  assert.is(failed.length, 3);
  received = [];
  const replayed = await running.call('/webhooks/deliveries/replay-failed', { method: 'POST' });
  assert.is(replayed.status, 200, replayed.text);
  assert.equal(replayed.json(), { replayed: 3, remaining: 0 });
  assert.is(await worker.tick(), 3);
  assert.equal(received.map((got) => got.headers['webhook-id']).sort(), failed.map((d) => d.eventId).sort(), 'the same events, same webhook-ids');
  for (const got of received) assertSigned(secret, got);
  assert.equal((await deliveriesOf()).map((d) => d.state), ['delivered', 'delivered', 'delivered', 'delivered']);
  assert.equal((await deliveriesOf()).map((d) => d.attempts).sort(), [1, 1, 1, 1], 'the delivered one was not sent again');
  const audit = ((await running.call('/audit')).json() as Audit).entries;
  assert.equal(audit.filter((e) => e.action === 'webhook.replayed_failed').map((e) => e.target), ['3 failed deliveries of every endpoint (0 left)']);
  assert.equal((await running.call('/webhooks/deliveries/replay-failed', { method: 'POST', json: { endpointId: 1 } })).json(), { replayed: 0, remaining: 0 });
  assert.is(
    ((await running.call('/audit')).json() as Audit).entries.filter((e) => e.action === 'webhook.replayed_failed').length,
    1,
    'nothing replayed: no row',
  );
});

test('bad endpoint input is a clear 400 or 404', async () => {
  const cases: [string, string, unknown, number, string][] = [
    ['POST', '/webhooks', { url: 'ftp://example.com/x' }, 400, 'invalid_request'],
    ['POST', '/webhooks', { url: receiverUrl, events: ['order.shipped'] }, 400, 'invalid_request'],
    ['POST', '/webhooks', { url: receiverUrl, format: 'teams' }, 400, 'invalid_request'],
    ['PATCH', '/webhooks/1', {}, 400, 'invalid_request'],
    ['PATCH', '/webhooks/7', { enabled: false }, 404, 'endpoint_not_found'],
    ['POST', '/webhooks/deliveries/7/replay', undefined, 404, 'delivery_not_found'],
    ['POST', '/webhooks/7/test', undefined, 404, 'endpoint_not_found'],
    ['DELETE', '/webhooks/7', undefined, 404, 'endpoint_not_found'],
    ['DELETE', '/webhooks/x', undefined, 404, 'endpoint_not_found'],
    ['POST', '/webhooks/7/rotate-secret', undefined, 404, 'endpoint_not_found'],
    ['POST', '/webhooks/1/rotate-secret', { graceHours: 48 }, 400, 'invalid_request'],
    ['POST', '/webhooks/1/rotate-secret', { graceHours: '2' }, 400, 'invalid_request'],
    ['POST', '/webhooks/deliveries/replay-failed', { state: 'pending' }, 400, 'invalid_request'],
  ];
  for (const [method, path, json, status, code] of cases) {
    const got = await running.call(path, { method, json });
    assert.is(got.status, status, `${method} ${path}`);
    assert.is((got.json() as { code: string }).code, code);
  }
  assert.is((await running.call('/webhooks/deliveries?state=lost')).status, 400);
});

test.run();
