/**
 * A buyer in a real Chromium (Debian's, driven by playwright-core; no browser is downloaded): a website
 * on another origin buys the standard product and the Plus bundle through the payment simulator, is
 * sent back to its success address and shows the keys; Cancel returns to the cancel address; a browser
 * that is not Windows lands on the shipped Windows-only page and can download anyway. The API is the
 * standalone program on the test PostgreSQL, as a real process.
 *
 * Needs Chromium: CHROMIUM_PATH, else `chromium` on the PATH (`apt-get install chromium`; .ci/run does it).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { EXAMPLE_CONFIG } from '../../server/config.ts';
import { testPostgres, type TestPostgres } from '../_databases.ts';
import { SIMULATOR_KEY_SHAPE } from '../_licenses.ts';
import { freePort } from '../_spawn.ts';
import { startServerProcess, type ServerProcess } from '../_spawn.ts';
import { launchChromium, NAVIGATION_MS } from './_chromium.ts';
import { INSTALLER_PATH, startShop, type Shop } from './_shop.ts';

const MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_1) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

interface World {
  browser: Browser;
  api: ServerProcess;
  apiUrl: string;
  shop: Shop;
  pg: TestPostgres;
  schema: string;
  dir: string;
}

const buyer = suite<{ world: World }>('a buyer in Chromium');

/** Stops whatever was started, in reverse order; each part is stopped even when another fails. */
async function stop(world: Partial<World>): Promise<void> {
  await world.browser?.close().catch(() => undefined);
  if (world.api) {
    world.api.child.kill('SIGTERM');
    await world.api.exited;
  }
  await world.shop?.close();
  if (world.pg && world.schema) await world.pg.dropSchema(world.schema);
  await world.pg?.close();
  if (world.dir) rmSync(world.dir, { recursive: true, force: true });
}

buyer.before(async (context) => {
  const world: Partial<World> = {};
  try {
    const port = await freePort();
    const apiUrl = `http://127.0.0.1:${port}`;
    world.shop = await startShop(() => apiUrl);
    const { origin } = world.shop;
    // The example content, with this site's origin, return addresses and installer.
    const config = JSON.parse(readFileSync(EXAMPLE_CONFIG, 'utf8')) as Record<string, unknown> & { download: Record<string, unknown> };
    world.dir = mkdtempSync(join(tmpdir(), 'browser-buyer-'));
    writeFileSync(join(world.dir, 'version.txt'), '2.4.1\n');
    writeFileSync(
      join(world.dir, 'config.json'),
      JSON.stringify({
        ...config,
        exampleContent: false,
        publicBaseUrl: apiUrl,
        corsOrigins: [origin],
        download: { msiUrl: `${origin}${INSTALLER_PATH}` },
        checkoutReturn: { successUrl: `${origin}/thanks.html?session_id={CHECKOUT_SESSION_ID}`, cancelUrl: `${origin}/pricing.html?cancelled=1` },
      }),
    );
    world.pg = await testPostgres();
    world.schema = await world.pg.freshSchema();
    world.api = await startServerProcess({
      PORT: String(port),
      CONFIG_FILE: join(world.dir, 'config.json'),
      STORAGE: undefined,
      DATABASE_URL: world.pg.url,
      DATABASE_SCHEMA: world.schema,
      PAYMENT_GATEWAY: 'simulator',
    });
    world.apiUrl = apiUrl;
    world.browser = await launchChromium();
    context.world = world as World;
  } catch (error) {
    await stop(world);
    throw error;
  }
});

buyer.after(async ({ world }) => {
  if (world) await stop(world);
});

/** A fresh browser context and page, closed after `use` whatever happens. */
async function withPage(world: World, use: (page: Page) => Promise<void>, userAgent?: string): Promise<void> {
  const context = await world.browser.newContext(userAgent ? { userAgent } : {});
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(NAVIGATION_MS);
    await use(page);
  } finally {
    await context.close();
  }
}

/** From the site's pricing page to the simulator, for one product; returns the simulator page's text. */
async function startCheckout(world: World, page: Page, button: string): Promise<string> {
  await page.goto(`${world.shop.origin}/pricing.html`);
  await page.click(button);
  await page.waitForURL(`${world.apiUrl}/checkout/simulator/**`);
  return page.innerText('body');
}

for (const [name, button, heading, price, keys] of [
  ['the standard product', '#buy-standard', 'Legacy Sheet Converter: Standard license', '$49', ['Standard']],
  ['the Plus bundle', '#buy-plus-bundle', 'Legacy Sheet Converter: Plus bundle (standard + Plus)', '$64', ['Standard', 'Plus']],
] as const) {
  buyer(`${name}: the site's button opens the simulator, which shows product and price; Pay returns to the success page with the keys`, async ({ world }) => {
    await withPage(world, async (page) => {
      const simulator = await startCheckout(world, page, button);
      assert.match(simulator, 'PAYMENT SIMULATOR: no money is taken.');
      assert.match(simulator, heading);
      assert.match(simulator, `Price: ${price} (simulated: nothing is charged)`);
      const sessionId = new URL(page.url()).pathname.split('/').at(-1)!;
      await page.click('text=Pay (simulated)');
      await page.waitForURL(`${world.shop.origin}/thanks.html?session_id=${sessionId}`);
      await page.waitForFunction(() => document.getElementById('keys')?.textContent !== 'loading…');
      const [status, ...lines] = (await page.innerText('#keys')).split('\n');
      assert.is(status, 'paid');
      assert.equal(lines.map((line) => line.split(': ')[0]), [...keys]);
      for (const line of lines) assert.match(line.split(': ')[1]!, SIMULATOR_KEY_SHAPE);
    });
  });
}

buyer('Cancel in the simulator returns to the cancel address', async ({ world }) => {
  await withPage(world, async (page) => {
    await startCheckout(world, page, '#buy-standard');
    await page.click('text=Cancel');
    await page.waitForURL(`${world.shop.origin}/pricing.html?cancelled=1`);
    assert.is(await page.innerText('#notice'), 'Checkout cancelled.');
  });
});

buyer('a browser that is not Windows lands on the shipped warning page and can download anyway', async ({ world }) => {
  await withPage(
    world,
    async (page) => {
      await page.goto(`${world.apiUrl}/api/v1/download?source=pricing-page`);
      assert.is(page.url(), `${world.apiUrl}/windows-only?source=pricing-page`);
      assert.is(await page.innerText('h1'), 'Legacy Sheet Converter runs on Windows');
      const download = page.waitForEvent('download');
      await page.click('text=Download anyway');
      assert.is((await download).url(), `${world.shop.origin}${INSTALLER_PATH}`);
    },
    MAC,
  );
});

buyer.run();
