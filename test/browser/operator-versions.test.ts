/**
 * The installed base by version on the Numbers page, in a real Chromium: clients checking for updates and
 * naming their installed version in the User-Agent (`LegacySheetConverter/<version>`) are shown by version,
 * each client once a day however often it checks (an unknown version as Other, none as Not named), with
 * the share on the newest release and the reviews and bug reports of each version; apps on the update files
 * pinging POST /installs are shown by install id beside them, never added up. The page passes axe-core at
 * 1280 and 360 px.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { OPERATOR_TOKEN, startOperatorServer } from '../_operator.ts';
import { launchChromium, NAVIGATION_MS, signInOn } from './_chromium.ts';
import { checkPage } from './_page-checks.ts';

const MSI = (version: string) => `https://downloads.example.com/LegacySheetConverter-${version}-x64.msi`;

/** What the test sends: clients checking per User-Agent version (null: a browser, no product token), each twice. */
const CHECKS: [string | null, number][] = [
  ['2.5.0', 7],
  ['2.6.0', 4],
  ['1.0.0', 2],
  [null, 3],
];

test('the Numbers page shows the clients that checked, by installed version, and the share on the newest release', async () => {
  const running = await startOperatorServer({ rateLimit: { name: 'test', limit: 1e9, windowSeconds: 60 } });
  const browser = await launchChromium();
  try {
    const { server } = running;
    for (const [version, percent] of [['2.5.0', 100], ['2.6.0', 100]] as const) {
      const published = await running.call('/releases', { method: 'POST', json: { version, msiUrl: MSI(version), rolloutPercent: percent } });
      assert.is(published.status, 201, published.text);
    }
    for (const [k, [version, clients]] of CHECKS.entries()) {
      const agent = version === null ? 'Mozilla/5.0 (Windows NT 10.0; Win64; x64)' : `LegacySheetConverter/${version} (Windows NT 10.0)`;
      for (let i = 0; i < 2 * clients; i++) {
        const from = `127.0.${k + 10}.${(i % clients) + 1}`;
        assert.is((await server.request({ path: '/api/v1/version', headers: { 'user-agent': agent }, from })).status, 200);
      }
    }
    for (
      const body of [
        { type: 'review', description: 'Fast', rating: 4, appVersion: '2.6.0' },
        { type: 'review', description: 'Good', rating: 5, appVersion: '2.6.0' },
        { type: 'bug_report', description: 'Crash on open', appVersion: '2.5.0' },
      ]
    ) {
      const answer = await server.request({
        method: 'POST',
        path: '/api/v1/feedback',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      assert.is(answer.status, 201, answer.text);
    }
    // Apps on the update files: 3 install ids on 2.6.0 (one of them twice), 1 on 2.5.0.
    for (const [version, n] of [['2.6.0', 1], ['2.6.0', 2], ['2.6.0', 3], ['2.6.0', 1], ['2.5.0', 4]] as const) {
      const installId = Buffer.alloc(16, n).toString('base64url');
      const answer = await server.request({
        method: 'POST',
        path: '/api/v1/installs',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ channel: 'stable', version, installId }),
      });
      assert.is(answer.status, 204, answer.text);
    }
    const page = await browser.newPage();
    page.setDefaultTimeout(NAVIGATION_MS);
    await signInOn(page, running.url, OPERATOR_TOKEN);
    await page.goto(`${running.url}/pages/numbers`);
    const rows = await page.$$eval(
      '#versions-installed tbody tr',
      (trs) => trs.map((tr) => Array.from(tr.children, (cell) => cell).map((cell) => (cell as HTMLElement).innerText.trim())),
    );
    assert.equal(rows, [
      ['2.5.0', '7', '53.8%', '1', '25%', '0', '', '1'],
      ['2.6.0', '4', '30.8%', '3', '75%', '2', '4.5', '0'],
      ['Other (not a known release)', '2', '15.4%', '0', '0%', '0', '', '0'],
      ['Not named', '3', '', '0', '', '0', '', '0'],
    ]);
    assert.match(
      await page.innerText('#versions-newest'),
      /^30\.8% of the clients naming a version ran the newest release, 2\.6\.0, on (\d{4}-\d\d-\d\d)\. By install id \(apps on the update files\): 75% on \1\.$/,
    );
    const today = await page.$$eval('#versions-by-day tbody tr:last-child > *', (cells) => cells.map((cell) => (cell as HTMLElement).innerText.trim()));
    assert.equal(today.slice(1), ['7', '4', '2', '3', '30.8%', '1']);
    const byId = await page.$$eval('#versions-by-install-id tbody tr:last-child > *', (cells) => cells.map((cell) => (cell as HTMLElement).innerText.trim()));
    assert.equal(byId.slice(1), ['1', '3', '75%'], '2.5.0, 2.6.0, the share on 2.6.0');
    await checkPage(page, 'numbers-versions');
  } finally {
    await browser.close();
    await running.close();
  }
});

test.run();
