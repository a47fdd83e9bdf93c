/**
 * The vendor's second week (issue 31), in process (app.handle): a staged release, its hotfix and a next
 * release at 0 % keep the shares they were given; a lower version, an address with a CR and oversized
 * fields are refused; a pulled release is not widened. What an address stored with a CR before fields were
 * checked costs on a real socket is test/http/answer-header-refused.test.ts.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { referenceBucketOf } from '../_siphash.ts';
import { parseCidrList } from '../../core/clients/cidr.ts';
import { clientKey } from '../../core/clients/client-ip.ts';
import { type InProcessOperator, startInProcessOperator } from '../_in-process.ts';

const test = suite('the second week of releases');
const WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64)';
const MSI = (version: string) => `https://downloads.example.com/LegacySheetConverter-${version}-x64.msi`;
/** 1,000 client addresses, as the issue measured. */
const CLIENTS = Array.from({ length: 1000 }, (_, i) => `198.51.${Math.floor(i / 250)}.${i % 250}`);

let running: InProcessOperator;
test.before.each(async () => {
  running = await startInProcessOperator({ rateLimit: { name: 'test', limit: 1e9, windowSeconds: 60 } }, { trustedProxies: parseCidrList('127.0.0.1/32') });
});
test.after.each(() => running.close());

const publish = (version: string, rolloutPercent: number, msiUrl = MSI(version)) =>
  running.call('/releases', { method: 'POST', json: { version, msiUrl, rolloutPercent } });

/** What each of the 1,000 clients is served by GET /version, counted per version (and the download agrees). */
async function servedCounts(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const client of CLIENTS) {
    const answer = (await running.server.request({ path: '/api/v1/version', headers: { 'x-forwarded-for': client } })).json() as {
      version: string;
      downloadUrl: string;
    };
    counts[answer.version] = (counts[answer.version] ?? 0) + 1;
  }
  return counts;
}

const listed = async () => {
  const list = (await running.call('/releases')).json() as {
    releases: { version: string; rolloutPercent: number; servedPercent: number }[];
    baseline: { servedPercent: number };
  };
  return [...list.releases.map((r) => [r.version, r.rolloutPercent, r.servedPercent]), ['baseline', null, list.baseline.servedPercent]];
};

test('5 %, then a 10 % hotfix, then a next release at 0 %: each share is what was typed, and the list says so', async () => {
  const bucketOf = referenceBucketOf(await running.server.storage.secret('voter-secret', () => 'unused'));
  const below = (percent: number) => CLIENTS.filter((client) => bucketOf(clientKey(client)) < percent).length;
  assert.is((await publish('2.5.0', 100)).status, 201);
  assert.is((await publish('2.6.1', 5)).status, 201);
  assert.equal(await servedCounts(), { '2.6.1': below(5), '2.5.0': 1000 - below(5) });
  assert.is((await publish('2.6.2', 10)).status, 201);
  // Before: 2.6.1 went to 89.7 % and 2.5.0 to nobody.
  assert.equal(await servedCounts(), { '2.6.2': below(10), '2.5.0': 1000 - below(10) });
  assert.ok(below(10) >= 60 && below(10) <= 140, `${below(10)} of 1,000 clients at 10 %`);
  assert.equal(await listed(), [['2.6.2', 10, 10], ['2.6.1', 5, 0], ['2.5.0', 100, 90], ['baseline', null, 0]]);
  assert.is((await publish('2.7.0', 0)).status, 201);
  // Before: 2.6.2 went to everyone.
  assert.equal(await servedCounts(), { '2.6.2': below(10), '2.5.0': 1000 - below(10) });
  assert.equal(await listed(), [['2.7.0', 0, 0], ['2.6.2', 10, 10], ['2.6.1', 5, 0], ['2.5.0', 100, 90], ['baseline', null, 0]]);
  // The clients who got the staged release are the first to get its hotfix.
  const staged = CLIENTS.filter((client) => bucketOf(clientKey(client)) < 5);
  for (const client of staged.slice(0, 10)) {
    const download = await running.server.request({ path: '/api/v1/download', headers: { 'x-forwarded-for': client, 'user-agent': WINDOWS } });
    assert.is(download.headers['location'], MSI('2.6.2'));
  }
});

test('a lower version, one that differs only in the fourth field, and a malformed one are refused; nobody is downgraded', async () => {
  await publish('2.5.0', 100);
  const lower = await publish('2.4.0', 100);
  assert.is(lower.status, 409);
  assert.equal(lower.json(), {
    code: 'release_not_higher',
    message: 'Version 2.4.0 is lower than 2.5.0, the highest published on stable: the clients it reached would be downgraded.',
    resolution:
      'Publish a version above the highest one GET /releases lists on that channel and the more stable ones; a typo in the version is the usual cause.',
  });
  const fourth = await publish('2.5.0.1', 100);
  assert.is(fourth.status, 409);
  assert.equal(
    (fourth.json() as { code: string; message: string }).message,
    'Version 2.5.0.1 differs from 2.5.0 only in the fourth field: Windows Installer compares major.minor.build and would not see it as an upgrade.',
  );
  for (const version of ['2.6', '2.6.0-beta', '256.0.0', '2.6.65536', '02.6.0', '9'.repeat(10_000)]) {
    const answer = await publish(version, 100, MSI('2.6.0'));
    assert.is(answer.status, 400, version.slice(0, 20));
    assert.is((answer.json() as { code: string }).code, 'invalid_request');
  }
  assert.equal(await servedCounts(), { '2.5.0': 1000 });
});

test('addresses with a CR, whitespace or 15,000 characters, and http ones, are refused with the field named', async () => {
  const base = 'https://downloads.example.com/';
  for (const msiUrl of [`${base}a.msi\r`, `${base}a b.msi`, `${base}${'a'.repeat(15_000)}.msi`, 'http://downloads.example.com/a.msi']) {
    const answer = await publish('2.6.0', 100, msiUrl);
    assert.is(answer.status, 400, JSON.stringify(msiUrl.slice(0, 60)));
    assert.match((answer.json() as { message: string }).message, /^Field "msiUrl" must be/);
  }
  const notes = await running.call('/releases', {
    method: 'POST',
    json: { version: '2.6.0', msiUrl: MSI('2.6.0'), notesUrl: `${base}notes\n`, rolloutPercent: 1 },
  });
  assert.is((notes.json() as { message: string }).message, 'Field "notesUrl" must be an https:// URL with no whitespace or control characters.');
  assert.equal(((await running.call('/releases')).json() as { releases: unknown[] }).releases, []);
});

test('a pulled release is not widened (409), and is served again once restored', async () => {
  await publish('2.5.0', 100);
  await publish('2.6.0', 100);
  assert.is((await running.call('/releases/2.6.0/pull', { method: 'POST' })).status, 200);
  const widen = await running.call('/releases/2.6.0/rollout', { method: 'POST', json: { rolloutPercent: 50 } });
  assert.is(widen.status, 409);
  assert.equal(widen.json(), {
    code: 'release_pulled',
    message: '2.6.0 is pulled: a rollout change would not reach any client.',
    resolution: 'Restore it first (POST /releases/{version}/restore), or publish a new version.',
  });
  assert.equal(await servedCounts(), { '2.5.0': 1000 });
  const restored = await running.call('/releases/2.6.0/restore', { method: 'POST' });
  assert.is(restored.status, 200);
  assert.equal((restored.json() as { pulledAt: null; servedPercent: number }).servedPercent, 100);
  assert.equal(await servedCounts(), { '2.6.0': 1000 });
  const audit = (await running.call('/audit')).json() as { entries: { action: string; target: string }[] };
  assert.equal(audit.entries.map((e) => [e.action, e.target]).slice(0, 2), [['release.restored', '2.6.0'], ['release.pulled', '2.6.0']]);
});

test.run();
