/**
 * The Orders and Events pages in a real Chromium (the harness of operator-pages.test.ts): find an order
 * by the buyer's email and revoke it (GET /api/v1/checkout/status then shows no keys); add an endpoint,
 * see the delivery the worker sent to a receiver on 127.0.0.1 and replay it (the receiver gets the same
 * event again). Each page passes axe-core at 1280 and 360 px and is screenshotted.
 *
 * Needs Chromium: CHROMIUM_PATH, else `chromium` on the PATH (`apt-get install chromium`; .ci/run does it).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createDeliveryWorker, type DeliveryWorker } from '../../core/webhooks/worker.ts';
import { LOCAL_RECEIVERS, OPERATOR_TOKEN, type OperatorServer, startOperatorServer } from '../_operator.ts';
import { launchChromium, NAVIGATION_MS, signInOn } from './_chromium.ts';
import { checkPage } from './_page-checks.ts';

/** Receivers on this machine, allowed as WEBHOOK_ALLOW_NETWORKS allows them (every test receiver is on 127.0.0.1). */

interface World {
  browser: Browser;
  page: Page;
  running: OperatorServer;
  receiver: Server;
  receiverUrl: string;
  /** The webhook-id of each request the receiver got. */
  received: string[];
  worker: DeliveryWorker;
  problems: string[];
}

const test = suite<{ world: World }>('the Orders and Events pages in Chromium');

test.before(async (context) => {
  const running = await startOperatorServer({ webhookAddresses: LOCAL_RECEIVERS });
  const received: string[] = [];
  const receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received.push(String(request.headers['webhook-id']));
      response.writeHead(204).end();
    });
  });
  try {
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    const logger = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} };
    const worker = createDeliveryWorker({
      outbox: running.server.storage.outbox,
      clock: running.server.clock,
      logger,
      addresses: LOCAL_RECEIVERS,
      fetch: (url, init) => fetch(url, init),
    });
    const browser = await launchChromium();
    const page = await (await browser.newContext({ timezoneId: 'Europe/Berlin', locale: 'en-GB' })).newPage();
    page.setDefaultTimeout(NAVIGATION_MS);
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    context.world = { browser, page, running, receiver, receiverUrl, received, worker, problems };
  } catch (error) {
    receiver.close();
    await running.close();
    throw error;
  }
});

test.after(async ({ world }) => {
  if (!world) return;
  await world.browser.close().catch(() => undefined);
  world.receiver.closeAllConnections();
  await new Promise((resolve) => world.receiver.close(resolve));
  await world.running.close();
});

const flash = (page: Page) => page.innerText('.flash');

/** A checkout paid on the simulator's page by `email`; its session id. */
async function buy(running: OperatorServer, email: string): Promise<string> {
  const json = { 'content-type': 'application/json' };
  const created = await running.server.request({
    method: 'POST',
    path: '/api/v1/checkout/create',
    headers: json,
    body: JSON.stringify({ product: 'standard' }),
  });
  const { sessionId } = created.json() as { sessionId: string };
  const body = new URLSearchParams({ email, name: 'Ada Lovelace', country: 'gb' }).toString();
  const paid = await running.server.request({
    method: 'POST',
    path: `/checkout/simulator/${sessionId}/pay`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });
  assert.is(paid.status, 303);
  return sessionId;
}

test('sign in, find an order by email and revoke it with a reason: the public status shows no keys', async ({ world }) => {
  const { page, running } = world;
  const id = await buy(running, 'ada@example.com');
  await buy(running, 'someone@example.com');
  const status = async () => (await running.server.request({ path: `/api/v1/checkout/status?session_id=${id}` })).json() as Record<string, string | null>;
  const key = (await status())['standardLicenseKey'];
  assert.ok(key);

  await signInOn(page, running.url, OPERATOR_TOKEN);
  await page.click('nav >> text=Orders');
  await page.waitForURL(`${running.url}/pages/orders`);
  await checkPage(page, 'orders');
  await page.fill('#find', 'ADA@example.com');
  await page.press('#find', 'Enter');
  await page.waitForURL(`${running.url}/pages/orders?find=ADA%40example.com`);
  assert.equal(await page.$$eval('article h3', (hs) => hs.map((h) => h.textContent)), [id]);
  await page.click(`a:text-is("${id}")`);
  await page.waitForURL(`${running.url}/pages/orders?order=${id}`);
  assert.match(await page.innerText('section[aria-labelledby=order-detail] ul'), key!);
  assert.not.match(await page.innerText('main'), /\d{2}:\d{2} UTC/, 'times in the viewer zone');
  await checkPage(page, 'order');
  await page.fill('#revoke-reason', 'Paid twice by mistake');
  await page.click('button:text-is("Revoke")');
  await page.waitForURL(`${running.url}/pages/orders?order=${id}`);
  assert.is(await flash(page), `The licenses of ${id} are revoked.`);
  assert.match(await page.innerText('#order-detail + p'), 'Licenses revoked (operator)');
  assert.equal(await status(), { status: 'paid', licenseKey: null, standardLicenseKey: null, plusLicenseKey: null });
  assert.ok(await page.isVisible('button:text-is("Reinstate")'));
});

test('add an endpoint (its secret shown once), see its delivery, replay it: the receiver gets the same event again', async ({ world }) => {
  const { page, running, received, worker } = world;
  await page.click('nav >> text=Events');
  await page.waitForURL(`${running.url}/pages/events`);
  await page.click('summary:has-text("Add an endpoint")');
  await page.fill('#endpoint-url', world.receiverUrl);
  await page.check('#event-feedback-received');
  await checkPage(page, 'events-add');
  await page.click('button:text-is("Add the endpoint")');
  await page.waitForURL(`${running.url}/pages/events`);
  assert.match(await flash(page), /Endpoint #1 is added[^]*shown this once[^]*whsec_/);
  // The secret is one long word: at 360 px the flash wraps it instead of widening the page.
  await checkPage(page, 'events-secret');
  const feedback = await running.server.request({
    method: 'POST',
    path: '/api/v1/feedback',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ description: 'Add .wk3' }),
  });
  assert.is(feedback.status, 201);
  assert.is(await worker.tick(), 1);
  await page.selectOption('#filter-state', 'delivered');
  await page.click('button:text-is("Filter")');
  await page.waitForURL(`${running.url}/pages/events?state=delivered`);
  assert.not.match(await page.innerText('main'), 'whsec_', 'the secret is shown once');
  assert.match(await page.innerText('#delivery-1'), '#1 feedback.received delivered');
  await checkPage(page, 'events');
  await page.click('button:has-text("Replay delivery #1")');
  await page.waitForURL(`${running.url}/pages/events?state=delivered`);
  assert.is(await flash(page), `Delivery #1 (feedback.received) will be sent again now to ${world.receiverUrl}, from its first attempt.`);
  assert.is(await worker.tick(), 1);
  assert.is(received.length, 2);
  assert.is(received[1], received[0]);
  assert.equal(world.problems, [], 'no console error and no refusal of the Content-Security-Policy');
});

test.run();
