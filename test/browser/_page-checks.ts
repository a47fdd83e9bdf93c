/**
 * What every operator page is checked for in Chromium, at 1280 and 360 px wide: axe-core finds no
 * serious or critical violation, and a screenshot is written to test-output/screenshots/ (git-ignored)
 * for a person to look at.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import * as assert from 'uvu/assert';

export const SCREENSHOTS = join(import.meta.dirname, '..', '..', 'test-output', 'screenshots');
export const WIDTHS = [1280, 360] as const;

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * axe-core's serious and critical violations on the page as it is. The script is evaluated through the
 * DevTools protocol, which the page's CSP does not govern (an injected <script> would be refused).
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: Violation[] }> } }).axe;
    return (await axe.run()).violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join('; ')})`);
}

/** At each width: no serious or critical axe violation, no sideways scroll, and a full-page screenshot. */
export async function checkPage(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    assert.equal(await seriousViolations(page), [], `${name} at ${width} px`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.is(overflow, 0, `${name} at ${width} px scrolls sideways`);
    await page.screenshot({ path: join(SCREENSHOTS, `operator-${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: WIDTHS[0], height: 800 });
}
