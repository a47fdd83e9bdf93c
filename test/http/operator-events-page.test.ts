/**
 * The Events page over real sockets, as a browser without JavaScript: add an endpoint (its secret shown
 * once), see the delivery the worker sent to a receiver on 127.0.0.1, replay it (the receiver gets the
 * same event again), filter the log by state, disable the endpoint; send a test event, rotate the secret
 * (the new one shown once), replay every failed delivery, delete the endpoint; forms without their CSRF
 * token refused and changing nothing. Injected clock.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createDeliveryWorker, type DeliveryWorker } from '../../core/webhooks/worker.ts';
import { sendRequest } from '../_client.ts';
import { LOCAL_RECEIVERS, type OperatorServer, startOperatorServer } from '../_operator.ts';
import { form, signIn } from '../_pages.ts';

/** Receivers on this machine, allowed as WEBHOOK_ALLOW_NETWORKS allows them (every test receiver is on 127.0.0.1). */

const test = suite('the Events page over HTTP');
let running: OperatorServer;
let receiver: Server;
let receiverUrl: string;
let received: Record<string, string>[];
let worker: DeliveryWorker;

test.before.each(async () => {
  running = await startOperatorServer({ webhookAddresses: LOCAL_RECEIVERS });
  received = [];
  receiver = createServer((request: IncomingMessage, response) => {
    request.resume();
    request.on('end', () => {
      received.push(request.headers as Record<string, string>);
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  const logger = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} };
  worker = createDeliveryWorker({
    outbox: running.server.storage.outbox,
    clock: running.server.clock,
    logger,
    addresses: LOCAL_RECEIVERS,
    fetch: (url, init) => fetch(url, init),
  });
});
test.after.each(async () => {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
  await running.close();
});

const feedback = (description: string) =>
  running.server.request({ method: 'POST', path: '/api/v1/feedback', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ description }) });
const deliveries = async () =>
  ((await running.call('/webhooks/deliveries')).json() as { deliveries: { id: number; state: string; attempts: number }[] }).deliveries;
const endpoints = async () =>
  ((await running.call('/webhooks')).json() as { endpoints: { id: number; url: string; events: string[]; format: string; enabled: boolean }[] }).endpoints;

test('an endpoint added on the page: its secret shown once; it gets the event; a replay sends the same event again', async () => {
  const session = await signIn(running.url);
  const empty = await session.get('/pages/events');
  assert.match(empty.text, '<label for="endpoint-url">Address (http or https)</label>');
  assert.match(
    empty.text,
    '<div><label class="inline" for="event-feedback-received"><input type="checkbox" id="event-feedback-received" name="event-feedback.received" value="on"> feedback.received</label>',
  );
  assert.match(empty.text, 'No delivery matches.');

  const added = await session.post('/pages/events/endpoints', { url: receiverUrl, 'event-feedback.received': 'on', format: 'standard' });
  assert.is(added.status, 303);
  assert.is(added.headers['location'], '/pages/events');
  const shown = await session.get('/pages/events');
  const secret = /shown this once \(keep it to verify the signatures\): (whsec_[A-Za-z0-9+/=]+)<\/p>/.exec(shown.text)?.[1];
  assert.ok(secret, 'the secret is in the flash');
  assert.match(shown.text, `<div class="flash done" role="status"><p>Endpoint #1 is added: ${receiverUrl}.</p>`);
  assert.not.match((await session.get('/pages/events')).text, secret!, 'the secret is shown once');
  assert.equal(await endpoints(), [{ ...(await endpoints())[0]!, url: receiverUrl, events: ['feedback.received'], format: 'standard', enabled: true }]);

  assert.is((await feedback('Please add .wk3')).status, 201);
  assert.is(await worker.tick(), 1);
  assert.is(received.length, 1);
  const log = await session.get('/pages/events?state=delivered');
  assert.match(log.text, '<h3 id="delivery-1">#1 feedback.received <span class="badge">delivered</span></h3>');
  assert.match(log.text, '1 attempt · last attempt <time');
  assert.match(log.text, 'answered 204');
  assert.match((await session.get('/pages/events?state=failed')).text, 'No delivery matches.');

  const replayed = await session.post('/pages/events/deliveries/1/replay', { back: '?state=delivered' });
  assert.is(replayed.status, 303);
  assert.is(replayed.headers['location'], '/pages/events?state=delivered');
  assert.match(
    (await session.get('/pages/events?state=pending')).text,
    `<p>Delivery #1 (feedback.received) will be sent again now to ${receiverUrl}, from its first attempt.</p>`,
  );
  assert.equal((await deliveries()).map((d) => [d.id, d.state, d.attempts]), [[1, 'pending', 0]]);
  assert.is(await worker.tick(), 1);
  assert.is(received.length, 2);
  assert.is(received[1]!['webhook-id'], received[0]!['webhook-id']);
  const audit = ((await running.call('/audit')).json() as { entries: { action: string }[] }).entries.map((e) => e.action);
  assert.equal(audit, ['webhook.replayed', 'webhook.added']);
});

test('disable and enable an endpoint: disabled, a new event makes no delivery for it', async () => {
  await running.call('/webhooks', { method: 'POST', json: { url: receiverUrl, format: 'slack' } });
  const session = await signIn(running.url);
  const page = await session.get('/pages/events');
  assert.match(page.text, '<span class="badge">Slack format</span>');
  assert.match(page.text, 'Sends every event');
  assert.match(page.text, 'Disable<span class="visually-hidden"> endpoint #1</span></button>');
  await session.post('/pages/events/endpoints/1/enabled', { enabled: 'false' });
  const after = await session.get('/pages/events');
  assert.match(after.text, '<p>Endpoint #1 is disabled: no new deliveries go to it.</p>');
  assert.match(after.text, 'Enable<span class="visually-hidden"> endpoint #1</span></button>');
  await feedback('Nobody hears this');
  assert.equal(await deliveries(), []);
  await session.post('/pages/events/endpoints/1/enabled', { enabled: 'true' });
  assert.is((await endpoints())[0]!.enabled, true);
  await feedback('Heard');
  assert.is((await deliveries()).length, 1);
});

test('test event, secret rotation, replay of every failed delivery and delete, from the page', async () => {
  await running.call('/webhooks', { method: 'POST', json: { url: receiverUrl } });
  const session = await signIn(running.url);
  const page = await session.get('/pages/events');
  for (const action of ['test', 'rotate-secret', 'delete']) assert.match(page.text, `<form method="post" action="/pages/events/endpoints/1/${action}">`);
  assert.match(page.text, 'Replay every failed delivery</button>');

  assert.is((await session.post('/pages/events/endpoints/1/test', {})).status, 303);
  assert.match((await session.get('/pages/events')).text, `<p>A webhook.test event is on its way to ${receiverUrl}: delivery #1, in the log below.</p>`);
  assert.is(await worker.tick(), 1);
  assert.match((await session.get('/pages/events?state=delivered')).text, '<h3 id="delivery-1">#1 webhook.test <span class="badge">delivered</span></h3>');

  await session.post('/pages/events/endpoints/1/rotate-secret', {});
  const rotated = await session.get('/pages/events');
  const until = new Date(running.server.clock.now() + 24 * 3_600_000).toISOString();
  assert.match(rotated.text, `<p>Endpoint #1 has a new signing secret; the old one signs too until ${until}.</p>`);
  const secret = /Its new signing secret, shown this once: (whsec_[A-Za-z0-9+/=]+)<\/p>/.exec(rotated.text)?.[1];
  assert.ok(secret, 'the new secret is in the flash');
  assert.not.match((await session.get('/pages/events')).text, secret!, 'shown once');

  const failed = (await deliveries())[0]!;
  await running.server.storage.outbox.recordAttempt(failed.id, {
    at: running.server.clock.now(),
    status: 500,
    error: 'the endpoint answered 500',
    delivered: false,
    nextAttemptAt: null,
  });
  assert.is((await session.post('/pages/events/deliveries/replay-failed', { back: '?state=failed' })).headers['location'], '/pages/events?state=failed');
  assert.match((await session.get('/pages/events')).text, '<p>1 failed delivery is sent again now.</p>');
  assert.equal((await deliveries()).map((d) => [d.state, d.attempts]), [['pending', 0]]);

  await session.post('/pages/events/endpoints/1/delete', {});
  const after = await session.get('/pages/events');
  assert.match(after.text, `<p>Endpoint #1 (${receiverUrl}) is deleted, with its 1 delivery.</p>`);
  assert.match(after.text, 'No endpoint: events are written nowhere else.');
  assert.equal([await endpoints(), await deliveries()], [[], []]);
  const audit = ((await running.call('/audit')).json() as { entries: { action: string }[] }).entries.map((e) => e.action);
  assert.equal(audit, ['webhook.deleted', 'webhook.replayed_failed', 'webhook.secret_rotated', 'webhook.tested', 'webhook.added']);
});

test('bad input and unknown ids show the API message; a form without its CSRF token is refused', async () => {
  const session = await signIn(running.url);
  await session.post('/pages/events/endpoints', { url: 'ftp://example.com/x', format: 'standard' });
  assert.match(
    (await session.get('/pages/events')).text,
    '<div class="flash error" role="alert"><p>Field &#34;url&#34; must be an http:// or https:// URL.</p>',
  );
  await session.post('/pages/events/deliveries/99/replay', {});
  assert.match((await session.get('/pages/events')).text, '<p>No webhook delivery has id 99.</p>');
  const { body, headers } = form({ url: receiverUrl });
  const forged = await sendRequest(running.url, { method: 'POST', path: '/pages/events/endpoints', body, headers: { ...headers, cookie: session.cookie } });
  assert.is(forged.status, 403);
  assert.equal(await endpoints(), []);
});

test.run();
