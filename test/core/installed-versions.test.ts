/**
 * Who runs which version: GET /version counts each client once a day by the installed version its
 * User-Agent product token names (known versions by name, `other`, `none`), with a configurable product
 * name, and answers exactly as before, whatever the token.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { bodyText, coreRequest, createTestApp } from '../_setup.ts';

let nextClient = 1;
/** A check from a client of its own, unless `clientIp` is given. */
const check = (agent: string | undefined, clientIp = `203.0.113.${nextClient++}`) =>
  coreRequest({ path: '/api/v1/version', clientIp, headers: agent === undefined ? {} : { 'user-agent': agent } });

const installed = async (t: Awaited<ReturnType<typeof createTestApp>>) => {
  await t.app.flush();
  const rows = await t.storage.usage.list(0, 1e6);
  const sums: Record<string, number> = {};
  // One row per platform too: summed by version.
  for (const r of rows) if (r.kind === 'installed') sums[r.release] = (sums[r.release] ?? 0) + r.count;
  return sums;
};

test('the answer is the same with or without the token; the check is counted by the installed version it names', async () => {
  const t = await createTestApp({ signAnswers: false });
  await t.storage.change((tx) =>
    tx.releases.publishRelease({
      version: '2.5.0',
      msiUrl: 'https://example.com/2.5.0.msi',
      notesUrl: null,
      rolloutBasisPoints: 10000,
      publishedAt: t.clock.now(),
    })
  );
  const plain = await t.app.handle(check(undefined));
  for (
    const agent of [
      'LegacySheetConverter/2.5.0 (Windows NT 10.0)',
      'LegacySheetConverter/2.4.1',
      'Mozilla/5.0 LegacySheetConverter/2.4.1 (Windows NT 10.0)',
      'LegacySheetConverter/9.9.9 (Windows NT 10.0)',
      'LegacySheetConverter/2.5.0-beta (Windows NT 10.0)',
      'NotLegacySheetConverter/2.5.0',
      'LegacySheetConverter/' + '1'.repeat(500),
    ]
  ) {
    const answer = await t.app.handle(check(agent));
    assert.equal([answer.status, bodyText(answer), answer.headers['content-type']], [plain.status, bodyText(plain), plain.headers['content-type']], agent);
  }
  // 2.5.0 is a stored release and 2.4.1 the baseline (the version file): known by name; the rest bounded.
  assert.equal(await installed(t), { none: 2, '2.5.0': 1, '2.4.1': 2, other: 3 });
});

test('a client is one install of a version a day, however often it checks and whatever it claims', async () => {
  const t = await createTestApp({ signAnswers: false });
  for (let i = 0; i < 110; i++) await t.app.handle(check('LegacySheetConverter/2.4.1', '198.51.100.7'));
  // Another /64 of IPv6 is another client; the same /64 is the same one.
  for (const ip of ['2001:db8:0:1::1', '2001:db8:0:1::2', '2001:db8:0:2::1']) await t.app.handle(check('LegacySheetConverter/2.4.1', ip));
  await t.app.handle(check(undefined, '198.51.100.7'));
  assert.equal(await installed(t), { '2.4.1': 3, none: 1 });
  t.clock.advance(24 * 60 * 60 * 1000);
  await t.app.handle(check('LegacySheetConverter/2.4.1', '198.51.100.7'));
  assert.equal(await installed(t), { '2.4.1': 4, none: 1 }, 'the next day counts it again');
});

test('the product name is configurable', async () => {
  const t = await createTestApp({ userAgentProduct: 'SheetPro' });
  await t.app.handle(check(undefined));
  await t.app.handle(check('SheetPro/2.4.1 (Windows NT 10.0)'));
  await t.app.handle(check('LegacySheetConverter/2.4.1'));
  assert.equal(await installed(t), { '2.4.1': 1, none: 2 });
});

test.run();
