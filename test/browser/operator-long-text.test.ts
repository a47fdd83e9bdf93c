/**
 * Public text of any length keeps the Inbox page inside the window: an app version of 200 characters
 * without a space (the longest the public API takes) widened the page by 786 px at 360 px wide.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { OPERATOR_TOKEN, startOperatorServer } from '../_operator.ts';
import { launchChromium, NAVIGATION_MS, signInOn } from './_chromium.ts';

test('a 200-character app version and email wrap inside the Inbox page at 1280 and 360 px', async () => {
  const running = await startOperatorServer();
  const browser = await launchChromium();
  try {
    const body = { description: 'Long fields', type: 'general', appVersion: '2.4.1-'.padEnd(200, 'x'), email: `${'a'.repeat(180)}@example.com` };
    const answer = await running.server.request({
      method: 'POST',
      path: '/api/v1/feedback',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    assert.is(answer.status, 201, answer.text);
    const page = await browser.newPage();
    page.setDefaultTimeout(NAVIGATION_MS);
    await signInOn(page, running.url, OPERATOR_TOKEN);
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 800 });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.is(overflow, 0, `the Inbox at ${width} px scrolls sideways`);
    }
  } finally {
    await browser.close();
    await running.close();
  }
});

test.run();
