/**
 * The update-window rule (core/licensing/update-window.ts, exported by converter-site-api/updates): keys
 * issued on an injected clock and verified as the app verifies them, their window's end from the issue day,
 * and the verdict of each release: lifetime, a window covering some releases, the fallback line's later bug
 * fixes, a paid upgrade, an installation with two keys, the baseline. No verdict reads a clock: moving the
 * clock afterwards changes none.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createLicenseIssuer, generateSigningKey, publicKeyOf, verifyLicenseKey } from '../../core/licensing/license.ts';
import { issueDayOf, latestUpdatesUntil, mayInstall, releaseVerdict, updatesUntil, updateTerms, type WindowRelease } from '../../core/updates-client.ts';
import { manualClock } from '../_setup.ts';

const test = suite('update window: which releases a license covers');

const DAY = 86_400_000;
const at = (iso: string) => Date.parse(iso);

/** Releases published in version order, as the operator can only publish them (a lower version is refused). */
const RELEASES: WindowRelease[] = [
  { version: '2.5.0', publishedAt: at('2026-09-01T10:00:00Z') },
  { version: '2.6.0', publishedAt: at('2027-02-01T10:00:00Z') },
  { version: '2.6.1', publishedAt: at('2027-06-10T10:00:00Z') },
  { version: '2.6.2', publishedAt: at('2027-12-01T10:00:00Z') },
  { version: '2.7.0', publishedAt: at('2028-01-15T10:00:00Z') },
  { version: '2.6.3', publishedAt: at('2028-02-01T10:00:00Z') },
];
const BASELINE = '2.4.1';

/** A key issued at the clock's time, verified with the public key alone: what the app holds. */
async function issuedKey(clock: { now(): number }, sku: 'standard' | 'plus_bundle' = 'standard') {
  const signingKey = await generateSigningKey();
  const issuer = await createLicenseIssuer(signingKey);
  const key = await issuer.issue({ sessionId: 'cs_window', sku, product: 'standard', issuedAt: clock.now(), simulated: false });
  const payload = await verifyLicenseKey(key, await publicKeyOf(signingKey));
  assert.ok(payload, 'the key verifies');
  return payload!;
}

const verdicts = (until: number | null, baseline: string | null = BASELINE) => {
  const terms = updateTerms(until, RELEASES, baseline);
  return RELEASES.map((release) => `${release.version} ${releaseVerdict(release, terms).verdict}`);
};

test('the window ends at the issue day 00:00 UTC plus N days, for a version-2 key and a version-1 key alike', async () => {
  const clock = manualClock(at('2026-11-21T23:59:59Z'));
  const payload = await issuedKey(clock);
  assert.is(issueDayOf(payload), '2026-11-21');
  assert.is(updatesUntil(issueDayOf(payload), 365), at('2027-11-21T00:00:00Z'));
  assert.is(updatesUntil(issueDayOf(payload), null), null, 'lifetime');
  const legacy = { v: 1 as const, product: 'standard' as const, sku: 'standard', sid: 'cs_1', iat: Math.floor(at('2026-11-21T23:59:59Z') / 1000) };
  assert.is(issueDayOf(legacy), '2026-11-21', "a version-1 key's iat, to its UTC day");
  assert.throws(() => updatesUntil('21.11.2026', 30), /not an issue day/);
});

test('lifetime covers every release, with no fallback line', async () => {
  assert.equal(verdicts(null), RELEASES.map((r) => `${r.version} covered`));
  assert.equal(updateTerms(null, RELEASES, BASELINE), { updatesUntil: null, newestCovered: null, fallbackLine: null, baseline: BASELINE });
  assert.equal(releaseVerdict(RELEASES[4]!, updateTerms(null, RELEASES)), { verdict: 'covered', basis: 'lifetime' });
});

test("a window covers what was published up to its end; the fallback line's later bug fixes are covered, a newer line is a paid upgrade", async () => {
  const clock = manualClock(at('2026-11-21T12:00:00Z'));
  const until = updatesUntil(issueDayOf(await issuedKey(clock)), 365)!;
  const terms = updateTerms(until, RELEASES, BASELINE);
  assert.equal(terms, { updatesUntil: at('2027-11-21T00:00:00Z'), newestCovered: '2.6.1', fallbackLine: '2.6', baseline: BASELINE });
  assert.equal(verdicts(until), [
    '2.5.0 covered',
    '2.6.0 covered',
    '2.6.1 covered',
    '2.6.2 fallback_bug_fix',
    '2.7.0 paid_upgrade',
    '2.6.3 fallback_bug_fix',
  ]);
  assert.equal(releaseVerdict(RELEASES[3]!, terms), { verdict: 'fallback_bug_fix', basis: 'fallback_line' });
  assert.equal(releaseVerdict(RELEASES[4]!, terms), { verdict: 'paid_upgrade', basis: 'after_window' });
  assert.equal(RELEASES.map((r) => mayInstall(releaseVerdict(r, terms))), [true, true, true, true, false, true]);
  // A release published at the window's very end is covered; one a millisecond later is not.
  assert.is(releaseVerdict({ version: '2.8.0', publishedAt: until }, terms).verdict, 'covered');
  assert.is(releaseVerdict({ version: '2.8.0', publishedAt: until + 1 }, terms).verdict, 'paid_upgrade');
});

test("the verdict reads no clock: the app's clock moved a year on (or back) changes nothing", async () => {
  const clock = manualClock(at('2026-11-21T12:00:00Z'));
  const payload = await issuedKey(clock);
  const before = verdicts(updatesUntil(issueDayOf(payload), 365));
  clock.advance(400 * DAY);
  assert.equal(verdicts(updatesUntil(issueDayOf(payload), 365)), before);
  clock.set(at('2000-01-01T00:00:00Z'));
  assert.equal(verdicts(updatesUntil(issueDayOf(payload), 365)), before);
});

test('an installation with two keys takes the latest window; a lifetime key makes it lifetime', async () => {
  const clock = manualClock(at('2026-11-21T12:00:00Z'));
  const first = updatesUntil(issueDayOf(await issuedKey(clock)), 365)!;
  clock.advance(30 * DAY);
  const second = updatesUntil(issueDayOf(await issuedKey(clock, 'plus_bundle')), 365)!;
  assert.is(second - first, 30 * DAY);
  assert.is(latestUpdatesUntil([first, second]), second);
  assert.is(latestUpdatesUntil([second, first]), second);
  assert.is(latestUpdatesUntil([first, null]), null);
  assert.throws(() => latestUpdatesUntil([]), /no key/);
  // 2027-12-21: 2.6.2 is within the later window, so the fallback line is still 2.6; 2.7.0 is not.
  assert.equal(updateTerms(latestUpdatesUntil([first, second]), RELEASES, BASELINE).newestCovered, '2.6.2');
  assert.equal(verdicts(latestUpdatesUntil([first, second])).slice(3), ['2.6.2 covered', '2.7.0 paid_upgrade', '2.6.3 fallback_bug_fix']);
});

test('the baseline is covered by every license; it is no release of the channel, so it is no fallback line', async () => {
  const clock = manualClock(at('2026-03-01T12:00:00Z'));
  const until = updatesUntil(issueDayOf(await issuedKey(clock)), 30)!;
  const terms = updateTerms(until, RELEASES, BASELINE);
  assert.equal(terms, { updatesUntil: at('2026-03-31T00:00:00Z'), newestCovered: null, fallbackLine: null, baseline: BASELINE });
  assert.equal(releaseVerdict({ version: '2.4.1', publishedAt: at('2027-01-01T00:00:00Z') }, terms), { verdict: 'covered', basis: 'baseline' });
  assert.is(releaseVerdict({ version: '2.4.1.7', publishedAt: at('2027-01-01T00:00:00Z') }, terms).basis, 'baseline', 'as Windows Installer compares');
  assert.equal(releaseVerdict({ version: '2.4.2', publishedAt: at('2027-01-01T00:00:00Z') }, terms), { verdict: 'paid_upgrade', basis: 'after_window' });
  assert.equal(verdicts(until), RELEASES.map((r) => `${r.version} paid_upgrade`));
  assert.is(updateTerms(until, RELEASES, null).baseline, null);
});

test.run();
