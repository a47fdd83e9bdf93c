/**
 * The Audit page in a real Chromium (the harness of operator-pages.test.ts), with two operators' own
 * tokens (OPERATOR_TOKENS): Ada publishes a release and Grace widens it on the Releases page, each
 * signed in with her token; the Audit page says who did what and when, filtered and paged by its form
 * and links (no script needed). Each view passes axe-core at 1280 and 360 px and is screenshotted.
 *
 * Needs Chromium: CHROMIUM_PATH, else `chromium` on the PATH (`apt-get install chromium`; .ci/run does it).
 */
import type { Browser, Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ADA, GRACE, NAMED_TOKENS, type OperatorServer, startOperatorServer } from '../_operator.ts';
import { closeBrowserWorld, launchChromium, NAVIGATION_MS, signInOn } from './_chromium.ts';
import { checkPage } from './_page-checks.ts';

const MSI = 'https://downloads.example.com/LegacySheetConverter-2.5.0-x64.msi';
/** Changes written before the test's own: more than a page, one with a long target, some with no name. */
const EARLIER = 52;

interface World {
  browser: Browser;
  page: Page;
  running: OperatorServer;
  problems: string[];
}

const test = suite<{ world: World }>('the Audit page in Chromium');

test.before(async (context) => {
  const running = await startOperatorServer({ operatorTokens: NAMED_TOKENS });
  try {
    const at = running.server.clock.now() - 3_600_000;
    for (let i = 1; i <= EARLIER; i++) {
      const target = i === EARLIER ? `cs_test_${'a1B2c3D4'.repeat(12)} charge.refunded evt_${'9'.repeat(40)}` : `cs_test_${i}`;
      await running.server.storage.change((tx) =>
        tx.audit.record({
          at: at + i,
          action: i % 2 ? 'order.refunded' : 'order.revoked',
          target,
          requestId: `earlier-${i}`,
          actor: i % 2 ? null : 'operator',
        })
      );
    }
    const browser = await launchChromium();
    const page = await (await browser.newContext({ timezoneId: 'America/New_York', locale: 'en-US' })).newPage();
    page.setDefaultTimeout(NAVIGATION_MS);
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    context.world = { browser, page, running, problems };
  } catch (error) {
    await running.close();
    throw error;
  }
});

test.after(({ world }) => closeBrowserWorld(world));

const flash = (page: Page) => page.innerText('.flash');

/** The Who and Action cells of the rows shown. */
const rows = (page: Page) =>
  page.$$eval('table.audit tbody tr', (trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td')).slice(1, 3).map((td) => td.textContent)));

async function signInAs(world: World, token: string): Promise<void> {
  await signInOn(world.page, world.running.url, token, '/pages/releases');
}

test('Ada publishes and Grace widens on the Releases page, each signed in with her own token; the Audit page names them', async ({ world }) => {
  const { page, running } = world;
  await signInAs(world, ADA);
  assert.is(await page.innerText('header .who'), 'Signed in as ada');
  await page.click('summary:has-text("Publish a release")');
  await page.fill('#publish-version', '2.5.0');
  await page.fill('#publish-msi', MSI);
  await page.click('button:text-is("Publish")');
  await page.waitForURL(`${running.url}/pages/releases`);
  assert.is(await flash(page), '2.5.0 is published to 10% of the clients.');
  await page.click('text=Sign out');
  await page.waitForURL(`${running.url}/pages/sign-in?signed-out`);

  await signInAs(world, GRACE);
  assert.is(await page.innerText('header .who'), 'Signed in as grace');
  await page.fill('#rollout-2-5-0', '50');
  await page.click('text=Set rollout');
  await page.waitForURL(`${running.url}/pages/releases`);
  assert.is(await flash(page), '2.5.0 is rolled out to 50%: served to 50% of the clients.');

  await page.click('nav >> text=Audit');
  await page.waitForURL(`${running.url}/pages/audit`);
  assert.is(await page.innerText('h1'), 'Audit');
  assert.is(await page.innerText('h2#changes'), 'Changes (50+)');
  const shown = await rows(page);
  assert.is(shown.length, 50);
  assert.equal(shown.slice(0, 4), [['grace', 'release.rollout'], ['ada', 'release.published'], ['operator', 'order.revoked'], ['—', 'order.refunded']]);
  assert.match(await page.innerText('#audit-54'), '2.5.0 at 50%');
  assert.not.match(await page.innerText('table.audit'), 'UTC', 'times in the viewer zone');
  await checkPage(page, 'audit');
});

test('the filters (operator, action prefix, target text) and "Older changes" work without a script, keeping the filters', async ({ world }) => {
  const { page, running } = world;
  await page.fill('#filter-actor', 'ada');
  await page.click('button:text-is("Filter")');
  await page.waitForURL(`${running.url}/pages/audit?actor=ada&action=&target=`);
  assert.equal(await rows(page), [['ada', 'release.published']]);
  assert.is(await page.inputValue('#filter-actor'), 'ada');
  await checkPage(page, 'audit-filtered');

  await page.fill('#filter-actor', '');
  await page.fill('#filter-action', 'order.');
  await page.click('button:text-is("Filter")');
  await page.waitForURL(`${running.url}/pages/audit?actor=&action=order.&target=`);
  assert.is(await page.innerText('h2#changes'), 'Changes (50+)');
  await page.click('text=Older changes');
  await page.waitForURL(`${running.url}/pages/audit?action=order.&before=3`);
  assert.equal(await rows(page), [['operator', 'order.revoked'], ['—', 'order.refunded']]);
  assert.is(await page.inputValue('#filter-action'), 'order.');

  await page.goto(`${running.url}/pages/audit?target=charge.refunded`);
  assert.equal(await rows(page), [['operator', 'order.revoked']]);
  await checkPage(page, 'audit-long-target');

  await page.goto(`${running.url}/pages/audit?actor=Ada`);
  assert.match(await page.innerText('.flash'), 'Field "actor" must be an operator\'s name');
  await page.click('text=Show every change');
  await page.waitForURL(`${running.url}/pages/audit`);
  await page.click('nav >> text=Orders');
  await page.waitForURL(`${running.url}/pages/orders`);
  assert.is(await page.innerText('h1'), 'Orders');
  assert.equal(world.problems, [], 'no console error and no refusal of the Content-Security-Policy');
});

test.run();
