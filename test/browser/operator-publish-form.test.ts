/**
 * The Releases page's publish form in a real Chromium: it takes a real installer's size (the field
 * stopped at 100 bytes, so the browser would not submit a 700 MB MSI) and a ramp step in minutes, hours
 * or days (it had only "hours per step": no 1-minute steps as the CLI's --every 1m, and 7 days as 168
 * hours). What the operator API stores is read back. axe-core finds no serious or critical violation.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { OPERATOR_TOKEN, startOperatorServer } from '../_operator.ts';
import { launchChromium, NAVIGATION_MS, signInOn } from './_chromium.ts';
import { checkPage } from './_page-checks.ts';

const MSI = (version: string) => `https://downloads.example.com/LegacySheetConverter-${version}-x64.msi`;
const SIZE = 734_003_200;

test('a 700 MB installer on a ramp of 1-minute steps, then one of 7-day steps, published from the form', async () => {
  const running = await startOperatorServer();
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    page.setDefaultTimeout(NAVIGATION_MS);
    await signInOn(page, running.url, OPERATOR_TOKEN, '/pages/releases');
    const publish = async (version: string, every: string, unit: string) => {
      await page.click('summary:has-text("Publish a release")');
      await page.fill('#publish-version', version);
      await page.fill('#publish-msi', MSI(version));
      await page.fill('#publish-sha256', 'ab'.repeat(32));
      await page.fill('#publish-size', String(SIZE));
      await page.fill('#publish-ramp', '1,5,25,100');
      await page.fill('#publish-every', every);
      await page.selectOption('#publish-every-unit', unit);
      assert.equal(await page.$$eval('#publish-size, #publish-every', (inputs) => inputs.map((input) => (input as HTMLInputElement).validity.valid)), [
        true,
        true,
      ], 'the browser takes both');
      await page.click('button:text-is("Publish")');
      await page.waitForURL(`${running.url}/pages/releases`);
      assert.is(await page.innerText('.flash'), `${version} is published to 1% of the clients on a ramp of 1, 5, 25, 100%.`);
    };
    assert.equal(
      await page.$$eval('#publish-every-unit option', (options) => options.map((o) => [(o as HTMLOptionElement).value, (o as HTMLOptionElement).selected])),
      [['minutes', false], ['hours', true], ['days', false]],
    );
    await publish('2.6.0', '1', 'minutes');
    await checkPage(page, 'releases-publish-units');
    await publish('2.7.0', '7', 'days');
    const listed = (await running.call('/releases')).json() as { releases: { version: string; size: number; ramp: { everyMinutes: number } }[] };
    assert.equal(listed.releases.map((r) => [r.version, r.size, r.ramp.everyMinutes]), [['2.7.0', SIZE, 7 * 24 * 60], ['2.6.0', SIZE, 1]]);
    const lines = await page.$$eval('.ramp', (ps) => ps.map((p) => (p as HTMLElement).innerText.replace(/ · next step .*$/, '')));
    assert.equal(lines, [
      'Ramp 1% → 5% → 25% → 100%, one step every 7 days: step 1 of 4 (1%)',
      'Ramp 1% → 5% → 25% → 100%, one step every 1 minute: step 1 of 4 (1%)',
    ]);
    assert.match(await page.innerText('#release-2-7-0 ~ .description'), `${SIZE} bytes`);
  } finally {
    await browser.close();
    await running.close();
  }
});

test.run();
