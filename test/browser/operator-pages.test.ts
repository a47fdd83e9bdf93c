/**
 * The operator pages in a real Chromium (Debian's, driven by playwright-core; no browser is downloaded),
 * with the keyboard where a person would use it: sign in, mark a feedback handled, add, ship, hide and
 * merge roadmap features (seen by the public GET /api/v1/roadmap), publish a release at 10 % (seen by
 * GET /api/v1/version), widen and pull it, see those update checks on the Numbers page, sign out. Every
 * page passes axe-core with no serious or critical violation at 1280 and 360 px, and is screenshotted into test-output/screenshots/.
 *
 * Needs Chromium: CHROMIUM_PATH, else `chromium` on the PATH (`apt-get install chromium`; .ci/run does it).
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { OPERATOR_TOKEN, type OperatorServer, startOperatorServer } from '../_operator.ts';
import { closeBrowserWorld, launchChromium, NAVIGATION_MS } from './_chromium.ts';
import { checkPage } from './_page-checks.ts';

interface World {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  running: OperatorServer;
  /** Console errors and CSP refusals the pages caused. */
  problems: string[];
}

const MSI = (version: string) => `https://downloads.example.com/LegacySheetConverter-${version}-x64.msi`;
const test = suite<{ world: World }>('the operator pages in Chromium');

test.before(async (context) => {
  const running = await startOperatorServer();
  try {
    for (
      const body of [
        { description: 'Please add Quattro Pro files', type: 'feature_request' },
        { description: 'Converts my old .wk1 files well', type: 'review', rating: 5, email: 'ann@example.com', appVersion: '2.4.1' },
      ]
    ) {
      const answer = await running.server.request({
        method: 'POST',
        path: '/api/v1/feedback',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      assert.is(answer.status, 201);
    }
    const browser = await launchChromium();
    // A viewer in Tokyo: times are shown in its zone, not in UTC.
    const browserContext = await browser.newContext({ timezoneId: 'Asia/Tokyo', locale: 'en-GB' });
    const page = await browserContext.newPage();
    page.setDefaultTimeout(NAVIGATION_MS);
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    context.world = { browser, context: browserContext, page, running, problems };
  } catch (error) {
    await running.close();
    throw error;
  }
});

test.after(({ world }) => closeBrowserWorld(world));

const publicJson = async (world: World, path: string, from = '127.0.0.1') => (await world.running.server.request({ path, from })).json();
const flash = (page: Page) => page.innerText('.flash');

test('a page without a session leads to the sign-in form; the token, typed and sent with Enter, signs in', async ({ world }) => {
  const { page, running } = world;
  await page.goto(`${running.url}/pages/inbox`);
  assert.is(page.url(), `${running.url}/pages/sign-in?next=%2Fpages%2Finbox`);
  await checkPage(page, 'sign-in');
  await page.keyboard.type('a wrong token');
  await page.keyboard.press('Enter');
  await page.waitForLoadState();
  assert.is(
    await flash(page),
    'That is none of the operator tokens.\n\nUse your token from OPERATOR_TOKENS, or the OPERATOR_TOKEN the server was started with.',
  );
  // Chromium reports the 403 of that answer on the console; from here on, nothing may be.
  world.problems.length = 0;
  await page.fill('#token', OPERATOR_TOKEN);
  await page.press('#token', 'Enter');
  await page.waitForURL(`${running.url}/pages/inbox`);
  assert.is(await page.innerText('h1'), 'Inbox');
  const cookie = (await world.context.cookies()).find((c) => c.name === `operator_session_${new URL(running.url).port}`)!;
  assert.equal([cookie.httpOnly, cookie.sameSite, cookie.path], [true, 'Strict', '/']);
});

test('the inbox: newest first, times in the viewer zone; filtered to new reviews, one is marked handled', async ({ world }) => {
  const { page, running } = world;
  assert.equal(await page.$$eval('article h3', (hs) => hs.map((h) => h.id)), ['entry-2', 'entry-1']);
  const shown = await page.innerText('article time');
  assert.not.match(shown, 'UTC');
  assert.match(shown, '21 Nov 2026, 21:00');
  await checkPage(page, 'inbox');
  await page.selectOption('#filter-type', 'review');
  await page.selectOption('#filter-handled', 'false');
  await page.click('text=Filter');
  await page.waitForURL(`${running.url}/pages/inbox?type=review&rating=&handled=false&search=`);
  await page.click('button:has-text("Mark handled #2")');
  await page.waitForURL(`${running.url}/pages/inbox?type=review&handled=false`);
  assert.is(await flash(page), 'Feedback #2 is marked handled.');
  assert.is(await page.innerText('main > p'), 'No feedback matches these filters.');
  const entries = ((await running.call('/feedback')).json() as { entries: { id: number; handledAt: string | null }[] }).entries;
  assert.equal(entries.map((e) => [e.id, e.handledAt !== null]), [[2, true], [1, false]]);
  // The export link of the page, with the session cookie of this browser.
  const csv = await page.context().request.get(`${running.url}/pages/inbox/export.csv?handled=true`);
  const received = new Date(running.server.clock.now()).toISOString();
  assert.equal((await csv.text()).split('\r\n').slice(1, 2), [`2,${received},review,5,2.4.1,ann@example.com,Converts my old .wk1 files well,${received}`]);
});

test('the roadmap: two features added, one shipped, a duplicate merged; GET /api/v1/roadmap follows each', async ({ world }) => {
  const { page, running } = world;
  await page.click('nav >> text=Roadmap');
  await page.waitForURL(`${running.url}/pages/roadmap`);
  const before = (await publicJson(world, '/api/v1/roadmap')) as {
    features: { id: number; title: string; vote_count: number; release_version: string | null }[];
  };
  const stored = ((await running.call('/roadmap')).json() as { features: { id: number }[] }).features;
  const next = Math.max(...stored.map((f) => f.id)) + 1;
  for (const title of ['Quattro Pro import', 'Open .wq1 files']) {
    await page.click('summary:has-text("Add a feature")');
    await page.fill('#new-title', title);
    await page.selectOption('#new-category', 'formats');
    await page.fill('#new-description', 'Asked for in the inbox.');
    await page.click('text=Add the feature');
    await page.waitForURL(`${running.url}/pages/roadmap`);
  }
  assert.is(await flash(page), `Feature #${next + 1} "Open .wq1 files" is added.`);
  const vote = await running.server.request({
    method: 'POST',
    path: '/api/v1/roadmap',
    from: '127.0.0.3',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ featureId: next + 1 }),
  });
  assert.is(vote.status, 200);

  // A feature ships in a release clients can have: the one they run now (the baseline, 2.4.1).
  await page.click(`summary:has-text("Edit #${next}")`);
  await page.fill(`#release-${next}`, '2.4.1');
  await page.click(`text=Save #${next}`);
  await page.waitForURL(`${running.url}/pages/roadmap`);
  assert.is(await flash(page), `Feature #${next} is saved.`);

  await page.click('summary:has-text("Merge a duplicate")');
  await page.selectOption('#merge-from', String(next + 1));
  await page.selectOption('#merge-into', String(next));
  await page.click('button:text-is("Merge")');
  await page.waitForURL(`${running.url}/pages/roadmap`);
  assert.is(await flash(page), `Feature #${next + 1} is merged into #${next}: 1 vote moved.`);
  await checkPage(page, 'roadmap');

  const after = (await publicJson(world, '/api/v1/roadmap')) as typeof before;
  assert.equal(after.features.map((f) => f.id), [...before.features.map((f) => f.id), next]);
  const added = after.features.find((f) => f.id === next)!;
  assert.equal([added.title, added.vote_count, added.release_version], ['Quattro Pro import', 1, '2.4.1']);

  await page.click(`button:has-text("Hide #${next}")`);
  await page.waitForURL(`${running.url}/pages/roadmap`);
  assert.is(await flash(page), `Feature #${next} is hidden.`);
  assert.not.ok(((await publicJson(world, '/api/v1/roadmap')) as typeof before).features.some((f) => f.id === next));
});

test('the releases: 2.5.0 published at 10 % reaches some clients only (GET /api/v1/version), then everyone, then is pulled', async ({ world }) => {
  const { page, running } = world;
  await page.click('nav >> text=Releases');
  await page.waitForURL(`${running.url}/pages/releases`);
  await page.click('summary:has-text("Publish a release")');
  await page.fill('#publish-version', '2.5.0');
  await page.fill('#publish-msi', MSI('2.5.0'));
  assert.is(await page.inputValue('#publish-percent'), '10');
  await page.click('button:text-is("Publish")');
  await page.waitForURL(`${running.url}/pages/releases`);
  assert.is(await flash(page), '2.5.0 is published to 10% of the clients.');
  const answers = [];
  for (let i = 1; i <= 100; i++) answers.push(JSON.stringify(await publicJson(world, '/api/v1/version', `127.0.1.${i}`)));
  const fresh = answers.filter((a) => a === JSON.stringify({ version: '2.5.0', downloadUrl: MSI('2.5.0') })).length;
  const baseline = JSON.stringify({ version: '2.4.1', downloadUrl: running.server.content.download.msiUrl });
  assert.is(fresh + answers.filter((a) => a === baseline).length, 100, 'every answer is one whole release');
  assert.ok(fresh >= 2 && fresh <= 25, `${fresh} of 100 clients got 2.5.0 at 10 %`);
  await checkPage(page, 'releases');

  await page.fill('#rollout-2-5-0', '100');
  await page.click('text=Set rollout');
  await page.waitForURL(`${running.url}/pages/releases`);
  assert.is(await flash(page), '2.5.0 is rolled out to 100%: served to 100% of the clients.');
  assert.equal(await publicJson(world, '/api/v1/version', '127.0.1.77'), { version: '2.5.0', downloadUrl: MSI('2.5.0') });
  // Pulling asks first, and says what it will do.
  await page.click('text=Pull 2.5.0…');
  await page.waitForURL(`${running.url}/pages/releases?pull=2.5.0#confirm`);
  assert.is(await page.textContent('#confirm p'), '100% of clients go back to 2.4.1 (the baseline).');
  await checkPage(page, 'releases-pull-confirmation');
  await page.click('#confirm button:text-is("Pull 2.5.0")');
  await page.waitForURL(`${running.url}/pages/releases`);
  assert.is(await flash(page), '2.5.0 is pulled: no client gets it until it is restored.');
  assert.equal(JSON.stringify(await publicJson(world, '/api/v1/version', '127.0.1.77')), baseline);
});

test('the numbers: the update checks of the releases test per day, as a chart and a table; 30 and 365 days', async ({ world }) => {
  const { page, running } = world;
  await page.click('nav >> text=Numbers');
  await page.waitForURL(`${running.url}/pages/numbers`);
  assert.is(await page.innerText('h1'), 'Numbers');
  const checks = ((await running.call('/stats')).json() as { updateChecks: { total: number } }).updateChecks.total;
  assert.ok(checks >= 100, `${checks} update checks`);
  assert.is(await page.innerText('#update-checks-table tbody tr:last-child td'), String(checks));
  assert.is(await page.getAttribute('svg[aria-labelledby="update-checks-title update-checks-desc"]', 'role'), 'img');
  await checkPage(page, 'numbers');
  await page.click('text=Last 365 days');
  await page.waitForURL(`${running.url}/pages/numbers?days=365`);
  assert.is(await page.locator('#downloads-table').isVisible(), false, 'the 365 rows are collapsed');
  await page.click('summary:has-text("Downloads per day as a table")');
  assert.is(await page.locator('#downloads-table tbody tr').count(), 365);
  await checkPage(page, 'numbers-365');
});

test('signing out ends the session: the pages lead to the sign-in form again', async ({ world }) => {
  const { page, running } = world;
  await page.click('text=Sign out');
  await page.waitForURL(`${running.url}/pages/sign-in?signed-out`);
  assert.is(await flash(page), 'You are signed out.');
  await page.goto(`${running.url}/pages/roadmap`);
  assert.is(page.url(), `${running.url}/pages/sign-in?next=%2Fpages%2Froadmap`);
  assert.equal(world.problems, [], 'no console error and no refusal of the Content-Security-Policy');
});

test.run();
