/**
 * The Numbers page's charts keep their axis labels inside the chart at 360 px wide: with five-digit counts
 * the y axis labels ("20000") were drawn left of the SVG and cut off (issue 33). Each tick label's
 * bounding box must lie inside its chart's and inside the window, at 1280 and 360 px.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { OPERATOR_TOKEN, startOperatorServer } from '../_operator.ts';
import { launchChromium, NAVIGATION_MS, signInOn } from './_chromium.ts';

const DAY_MS = 86_400_000;

test('the y axis labels of every chart are inside the chart and the window, at 1280 and 360 px', async () => {
  const running = await startOperatorServer();
  const browser = await launchChromium();
  try {
    const today = Math.floor(running.server.clock.now() / DAY_MS);
    // Five-digit counts: the axis tops at 20000 (downloads) and 200000 (update checks).
    await running.server.storage.usage.add([
      { day: today, kind: 'download', release: '2.4.1', source: 'website', platform: 'windows', count: 12_345 },
      { day: today - 3, kind: 'update_check', release: '2.4.1', source: 'app', platform: 'windows', count: 123_456 },
    ]);
    const page = await browser.newPage();
    page.setDefaultTimeout(NAVIGATION_MS);
    await signInOn(page, running.url, OPERATOR_TOKEN);
    await page.goto(`${running.url}/pages/numbers`);
    assert.match(await page.innerText('#downloads-heading'), '12345 in all');
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 800 });
      const boxes = await page.$$eval('svg.chart', (charts) =>
        charts.flatMap((chart) => {
          const outer = chart.getBoundingClientRect();
          return Array.from(chart.querySelectorAll('text.tick'), (label) => {
            const box = label.getBoundingClientRect();
            const shown = getComputedStyle(label).display !== 'none';
            return {
              text: label.textContent,
              shown,
              left: box.left - outer.left,
              right: outer.right - box.right,
              top: box.top - outer.top,
              bottom: outer.bottom - box.bottom,
              pageLeft: box.left,
              pageRight: document.documentElement.clientWidth - box.right,
            };
          });
        }));
      const labels = boxes.filter((b) => b.shown);
      assert.ok(labels.some((b) => b.text === '20000') && labels.some((b) => b.text === '200000'), `the five- and six-digit tops are labelled at ${width} px`);
      const outside = labels.filter((b) => Math.min(b.left, b.right, b.top, b.bottom, b.pageLeft, b.pageRight) < 0);
      assert.equal(outside, [], `labels cut off at ${width} px`);
    }
  } finally {
    await browser.close();
    await running.close();
  }
});

test.run();
