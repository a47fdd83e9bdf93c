/**
 * The checkout round trip of a plain `npm start` in a real Chromium: the server program with the example
 * config as shipped (no CONFIG_FILE: its `checkoutReturn` names localhost:3000, where nothing runs) and
 * the payment simulator. The buyer opens the checkout, pays, and lands on the server's own thanks page,
 * which shows the keys GET /api/v1/checkout/status gives for the session; Cancel stays on the simulator.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { SIMULATOR_KEY_SHAPE } from '../_licenses.ts';
import { startServerProcess } from '../_spawn.ts';
import { launchChromium, NAVIGATION_MS } from './_chromium.ts';

test('npm start on the example config: Pay in the simulator ends on the thanks page with the keys', async () => {
  const api = await startServerProcess({ PAYMENT_GATEWAY: undefined });
  const browser = await launchChromium();
  try {
    assert.ok(api.lines.some((line) => line.includes('serving the EXAMPLE content')), 'the example config');
    const create = async (product: string) => {
      const answer = await fetch(`${api.url}/api/v1/checkout/create`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ product }),
      });
      assert.is(answer.status, 200);
      return (await answer.json()) as { sessionId: string; url: string };
    };
    const page = await browser.newPage();
    page.setDefaultTimeout(NAVIGATION_MS);
    const bought = await create('plus_bundle');
    await page.goto(bought.url);
    await page.click('button:has-text("Pay (simulated)")');
    await page.waitForURL(`**/checkout/thanks?session_id=${bought.sessionId}`);
    assert.is(await page.innerText('h1'), 'Thank you for your purchase');
    const shown = { standard: await page.innerText('#standard-key'), plus: await page.innerText('#plus-key') };
    const status = (await (await fetch(`${api.url}/api/v1/checkout/status?session_id=${bought.sessionId}`)).json()) as {
      standardLicenseKey: string;
      plusLicenseKey: string;
    };
    assert.equal(shown, { standard: status.standardLicenseKey, plus: status.plusLicenseKey });
    assert.match(shown.standard, SIMULATOR_KEY_SHAPE);
    assert.is(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), 0, 'the keys wrap inside the window');
    await page.setViewportSize({ width: 360, height: 800 });
    assert.is(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), 0, 'at 360 px too');

    const left = await create('standard');
    await page.goto(left.url);
    await page.click('button:has-text("Cancel")');
    await page.waitForURL(`**/checkout/simulator/${left.sessionId}?cancelled=1`);
    assert.match(await page.innerText('#cancelled'), 'Payment cancelled.');
  } finally {
    await browser.close();
    api.child.kill('SIGTERM');
    await api.exited;
  }
});

test.run();
