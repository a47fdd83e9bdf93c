/**
 * What a vendor looked for (issue 33) in a real Chromium with JavaScript off: find an order by a pasted
 * license key and by part of the buyer's name, see what it paid, download the orders CSV for a period;
 * search the Inbox and mark all the entries shown as handled. Each page state passes axe-core at 1280 and
 * 360 px with no sideways scroll (checked in a second, ordinary context, as axe needs scripts).
 *
 * Needs Chromium: CHROMIUM_PATH, else `chromium` on the PATH (`apt-get install chromium`; .ci/run does it).
 */
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { OPERATOR_TOKEN, type OperatorServer, startOperatorServer } from '../_operator.ts';
import { exampleContent } from '../_setup.ts';
import { closeBrowserWorld, launchChromium, NAVIGATION_MS, signInOn } from './_chromium.ts';
import { checkPage } from './_page-checks.ts';

interface World {
  browser: Browser;
  /** JavaScript off: what the operator does. */
  page: Page;
  /** JavaScript on, signed in too: the axe-core and width checks of each state. */
  checker: Page;
  running: OperatorServer;
}

const test = suite<{ world: World }>("a vendor's week on the operator pages in Chromium");

async function signedIn(browser: Browser, running: OperatorServer, javaScriptEnabled: boolean): Promise<Page> {
  const page = await (await browser.newContext({ timezoneId: 'UTC', locale: 'en-GB', javaScriptEnabled, acceptDownloads: true })).newPage();
  page.setDefaultTimeout(NAVIGATION_MS);
  await signInOn(page, running.url, OPERATOR_TOKEN);
  return page;
}

test.before(async (context) => {
  const running = await startOperatorServer({ simulator: { offer: exampleContent().offer } });
  try {
    const browser = await launchChromium();
    context.world = { browser, running, page: await signedIn(browser, running, false), checker: await signedIn(browser, running, true) };
  } catch (error) {
    await running.close();
    throw error;
  }
});

test.after(({ world }) => closeBrowserWorld(world));

/** Checks the page the operator is on, as the checker sees the same address. */
async function check({ page, checker }: World, name: string): Promise<void> {
  await checker.goto(page.url());
  await checkPage(checker, name);
}

/** A checkout paid on the simulator's page by `name`; its session id and standard key. */
async function buy(running: OperatorServer, name: string): Promise<{ id: string; key: string }> {
  const created = await running.server.request({
    method: 'POST',
    path: '/api/v1/checkout/create',
    headers: { 'content-type': 'application/json' },
    body: '{"product":"standard"}',
  });
  const { sessionId } = created.json() as { sessionId: string };
  const body = new URLSearchParams({ email: 'buyer@example.com', name, country: 'gb' }).toString();
  await running.server.request({
    method: 'POST',
    path: `/checkout/simulator/${sessionId}/pay`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });
  const status = (await running.server.request({ path: `/api/v1/checkout/status?session_id=${sessionId}` })).json() as { standardLicenseKey: string };
  return { id: sessionId, key: status.standardLicenseKey };
}

test('orders: a pasted key and part of a name find the order; its amount; the CSV of a period downloads', async ({ world }) => {
  const { page, running } = world;
  const ada = await buy(running, 'Ada Lovelace');
  const paidAt = new Date(running.server.clock.now()).toISOString();
  // Paid a second later: the export lists oldest first, and orders of one instant by session id (random).
  running.server.clock.advance(1000);
  const other = await buy(running, 'Someone Else');
  await page.goto(`${running.url}/pages/orders`);
  await page.fill('#find', `   ${ada.key}   `);
  await page.press('#find', 'Enter');
  await page.waitForURL(/\/pages\/orders\?find=/);
  assert.equal(await page.$$eval('article h3', (hs) => hs.map((h) => h.textContent)), [ada.id]);
  await check(world, 'orders-by-key');
  await page.fill('#find', 'lOVELACE');
  await page.click('button:text-is("Find")');
  await page.waitForURL(`${running.url}/pages/orders?find=lOVELACE`);
  assert.equal(await page.$$eval('article h3', (hs) => hs.map((h) => h.textContent)), [ada.id]);
  assert.match(await page.innerText('article'), 'Ada Lovelace · GB · paid');
  assert.match(await page.innerText('article'), '49.00 USD');
  await page.click(`a:text-is("${ada.id}")`);
  await page.waitForURL(`${running.url}/pages/orders?order=${ada.id}`);
  assert.match(await page.innerText('section[aria-labelledby=order-detail] p.description'), 'Amount: 49.00 USD');
  await check(world, 'order-amount');

  const day = paidAt.slice(0, 10);
  await page.fill('#export-from', day);
  await page.fill('#export-to', day);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('button:text-is("Export as CSV")')]);
  assert.is(download.suggestedFilename(), 'orders.csv');
  const csv = readFileSync((await download.path())!, 'utf8');
  assert.equal(csv.split('\r\n').map((line) => line.split(',')[0]), ['sessionId', ada.id, other.id, '']);
  assert.match(csv, `${ada.id},${paidAt},buyer@example.com,Ada Lovelace,standard,49.00,USD,paid,0.00\r\n`);
});

test('inbox: search by text or email, then "Mark all shown as handled" with its count', async ({ world }) => {
  const { page, running } = world;
  for (const [description, email] of [['Crash on open', null], ['Fine', null], ['A long one', 'crash.fan@example.com'], ['Also fine', null]] as const) {
    await running.server.storage.intake.addFeedback({
      type: 'general',
      description,
      email,
      appVersion: null,
      rating: null,
      receivedAt: running.server.clock.now(),
    });
  }
  await page.goto(`${running.url}/pages/inbox`);
  await page.fill('#filter-search', 'CRASH');
  await page.click('button:text-is("Filter")');
  await page.waitForURL(/\/pages\/inbox\?.*search=CRASH/);
  assert.equal(await page.$$eval('article h3', (hs) => hs.map((h) => h.textContent?.split(' ')[0])), ['#3', '#1']);
  await check(world, 'inbox-search');
  await page.click('button:text-is("Mark all 2 shown as handled")');
  await page.waitForURL(/\/pages\/inbox\?.*search=CRASH/);
  assert.is(await page.innerText('.flash'), 'Marked 2 entries handled.');
  assert.match(await page.innerText('main'), 'No feedback matches these filters.');
  await check(world, 'inbox-marked');
  await page.fill('#filter-search', '');
  await page.click('button:text-is("Filter")');
  assert.equal(await page.$$eval('article h3', (hs) => hs.map((h) => h.textContent?.split(' ')[0])), ['#4', '#2']);
  const audit = (await running.call('/audit')).json() as { entries: { action: string; target: string }[] };
  assert.equal(audit.entries.map((e) => `${e.action} ${e.target}`), ['feedback.handled_bulk 2 entries (of 2 listed)']);
});

test.run();
