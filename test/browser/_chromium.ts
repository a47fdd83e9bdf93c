/**
 * Debian's Chromium for the browser tests, driven by playwright-core (which downloads no browser):
 * CHROMIUM_PATH, else `chromium` on the PATH (`apt-get install chromium`; .ci/run does it).
 */
import { execFileSync } from 'node:child_process';
import { type Browser, chromium, type Page } from 'playwright-core';
import { slowFactor } from '../_load.ts';

/** Generous: a loaded machine may take long, and nothing here waits on a clock of its own. Times TEST_SLOW. */
export const NAVIGATION_MS = Math.round(90_000 * slowFactor());

/** The Chromium binary, or an error that says how to get one. */
export function chromiumPath(): string {
  const configured = process.env['CHROMIUM_PATH'];
  if (configured) return configured;
  try {
    return execFileSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error('the browser tests need Chromium: apt-get install chromium, or set CHROMIUM_PATH');
  }
}

/** Starts Chromium headless. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox'], timeout: NAVIGATION_MS });
}

/**
 * Signs `page` in to the operator pages of the server at `url` through the sign-in form, and waits for the
 * page it lands on (`from`, or the Inbox when it signs in from the sign-in page itself).
 */
export async function signInOn(page: Page, url: string, token: string, from = '/pages/sign-in'): Promise<void> {
  await page.goto(`${url}${from}`);
  await page.fill('#token', token);
  await page.press('#token', 'Enter');
  await page.waitForURL(`${url}${from === '/pages/sign-in' ? '/pages/inbox' : from}`);
}

/** The `after` hook of a suite that holds a browser and a running server: both closed, the browser's failure ignored. */
export async function closeBrowserWorld(world: { browser: Browser; running: { close(): Promise<void> } } | undefined): Promise<void> {
  if (!world) return;
  await world.browser.close().catch(() => undefined);
  await world.running.close();
}
