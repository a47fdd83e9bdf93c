/**
 * The halt rule by install id (issue 55, docs/releases.md "Two kinds of installs"): apps on the update files
 * ping POST /installs and send bug reports with their install id. The worked example by install id: 2.5.0
 * from 12:00 UTC with 2,000 installs on its first day and 1 reporting install, 2.6.0 at midnight a day and a
 * half later on a ramp at 50 % with 500 installs of its cohort; 6 hours in (against 2.5.0's first 6 hours:
 * 1,000 installs), reports from 20 of them on 20 networks halt it at the 18th, as the example by address
 * does, its reason saying which kind halted it. A report counts only when the install's cohort bucket (the published rule)
 * is in the ramp; minted install ids from 10 networks halt nothing; the two kinds are never added up.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createKeyedMac } from '../../core/clients/keyed-hash.ts';
import { cohortBucket } from '../../core/tuf/cohort.ts';
import { cohortSeeds } from '../../core/updates/publisher.ts';
import { referenceBucketOf } from '../_siphash.ts';
import { clientKey } from '../../core/clients/client-ip.ts';
import { bodyJson, coreRequest, createTestApp, type TestApp } from '../_setup.ts';

const test = suite<{ t: TestApp }>('the halt rule by install id');
const HOUR = 3600_000;
const DAY = 24 * HOUR;
const idOf = (i: number) => Buffer.from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, (i >> 16) & 255, (i >> 8) & 255, i & 255, 0]).toString('base64url');
/** An address of its own /24 for each n. */
const addressOf = (n: number) => `198.${51 + Math.floor(n / 256)}.${n % 256}.7`;

test.before.each(async (context) => {
  context.t = await createTestApp({ rateLimit: { name: 'test', limit: 1e9, windowSeconds: 60 } });
});

const post = (t: TestApp, path: string, json: unknown, clientIp: string) => t.app.handle(coreRequest({ method: 'POST', path, json, clientIp }));
const ping = (t: TestApp, version: string, installId: string, clientIp: string) =>
  post(t, '/api/v1/installs', { channel: 'stable', version, installId }, clientIp);
const report = (t: TestApp, appVersion: string, clientIp: string, installId?: string) =>
  post(t, '/api/v1/feedback', { type: 'bug_report', description: 'It crashes on open', appVersion, ...(installId ? { installId } : {}) }, clientIp);
const release = async (t: TestApp, version: string) => (await t.storage.releases.listReleases()).find((r) => r.version === version)!;

async function publish(t: TestApp, version: string, rolloutPercent: number, ramp: boolean): Promise<void> {
  const now = t.clock.now();
  await t.storage.change((tx) =>
    tx.releases.publishRelease({
      version,
      msiUrl: `https://downloads.example.com/${version}.msi`,
      notesUrl: null,
      rolloutBasisPoints: rolloutPercent * 100,
      publishedAt: now,
      ...(ramp ? { ramp: { basisPoints: [rolloutPercent * 100, 10000], everyMs: DAY, startAt: now } } : {}),
    })
  );
  await t.app.refreshReleases();
}

/** The install ids 2.6.0 at 50 % (5000 basis points) is offered to, by the published rule, and some it is not. */
async function cohorts(t: TestApp): Promise<{ inside: string[]; outside: string[] }> {
  const seed = cohortSeeds(createKeyedMac(await t.storage.secret('voter-secret', () => 'unused')))('2.6');
  const inside: string[] = [], outside: string[] = [];
  for (let i = 0; inside.length < 3000 || outside.length < 50; i++) (await cohortBucket(seed, idOf(i)) < 5000 ? inside : outside).push(idOf(i));
  return { inside, outside };
}

/** Where the example starts, and when 2.6.0 is published: midnight UTC, a day and a half later. */
const START = Date.UTC(2026, 10, 21, 12);
const RAMP_AT = START + 36 * HOUR;

/**
 * 2.5.0 from 12:00 UTC with 2,000 installs and 1 reporting install (`firstDay` then does more on that day);
 * 2.6.0 at midnight a day and a half later on a ramp at 50 % with 500 installs of its cohort; the clock then
 * 6 hours into its ramp.
 */
async function theExample(t: TestApp, firstDay = async () => {}): Promise<{ inside: string[]; outside: string[] }> {
  t.clock.set(START);
  await publish(t, '2.5.0', 100, false);
  for (let i = 0; i < 2000; i++) assert.is((await ping(t, '2.5.0', idOf(1_000_000 + i), addressOf(i))).status, 204);
  assert.is((await report(t, '2.5.0', addressOf(0), idOf(1_000_000))).status, 201);
  await firstDay();
  t.clock.set(RAMP_AT);
  await publish(t, '2.6.0', 50, true);
  t.clock.advance(1000);
  const ids = await cohorts(t);
  for (let i = 0; i < 500; i++) assert.is((await ping(t, '2.6.0', ids.inside[i]!, addressOf(i))).status, 204);
  t.clock.set(RAMP_AT + 6 * HOUR);
  return ids;
}

const REASON = 'Apps on the update files, counted by install id: 2.6.0: 18 reporting clients from 18 networks, of 500 installs on its first day ' +
  '(36.0 per 1,000), against 2.5.0: 1 of 1,000 (1.0 per 1,000) at the same age; p = 0.00083 for more than 3× its rate. The rule halts ' +
  'with at least 10 reporting clients from 10 networks and p below 0.0010 (99.9% confidence).';

test('reports by install id from 20 of its 500 installs on 20 networks halt 2.6.0 at the 18th, its reason saying the kind', async ({ t }) => {
  const { inside } = await theExample(t);
  for (let i = 0; i < 17; i++) assert.is((await report(t, '2.6.0', addressOf(1000 + i), inside[i])).status, 201);
  assert.is((await release(t, '2.6.0')).haltedAt, null, '17 networks: p = 0.0013, not yet significant');
  assert.is((await report(t, '2.6.0', addressOf(1017), inside[17])).status, 201);
  const halted = await release(t, '2.6.0');
  assert.equal([halted.haltedAt, halted.haltReason], [t.clock.now(), REASON]);
  assert.equal(await t.storage.usage.reporters('2.6.0', 0, t.clock.now()), { clients: 0, networks: 0 }, 'none counted by address');
});

test("a report from an install outside the ramp's cohort counts nothing, from any number of networks", async ({ t }) => {
  const { outside } = await theExample(t);
  for (let i = 0; i < 40; i++) assert.is((await report(t, '2.6.0', addressOf(1000 + i), outside[i])).status, 201);
  assert.equal(await t.storage.installs.reporters('2.6.0', 0, t.clock.now()), { clients: 0, networks: 0 });
  assert.is((await release(t, '2.6.0')).haltedAt, null);
});

test('10 networks with any number of install ids minted in the cohort halt nothing: each network counts once', async ({ t }) => {
  const { inside } = await theExample(t);
  // 2,500 minted ids, 250 from each of 10 /24s (one address each and its neighbours).
  for (let i = 0; i < 2500; i++) {
    const network = i % 10;
    assert.is((await report(t, '2.6.0', `203.0.${network}.${1 + Math.floor(i / 10) % 250}`, inside[500 + i])).status, 201);
  }
  assert.equal(await t.storage.installs.reporters('2.6.0', 0, t.clock.now()), { clients: 2500, networks: 10 });
  assert.is((await release(t, '2.6.0')).haltedAt, null, 'k = 10 networks: p = 0.030');
});

test('the two kinds are never added up: 9 networks by address and 9 by install id halt nothing', async ({ t }) => {
  const check = (ip: string, version: string) =>
    t.app.handle(coreRequest({ path: '/api/v1/version', clientIp: ip, headers: { 'user-agent': `LegacySheetConverter/${version} (Windows NT 10.0)` } }));
  // The same release before by address: 2,000 clients checking naming 2.5.0 on its first day (counted when the usage counts are written).
  const { inside } = await theExample(t, async () => {
    for (let i = 0; i < 2000; i++) await check(`192.0.${Math.floor(i / 250)}.${(i % 250) + 1}`, '2.5.0');
  });
  const bucketOf = referenceBucketOf(await t.storage.secret('voter-secret', () => 'unused'));
  const offered: string[] = [];
  for (let n = 0; offered.length < 500; n++) {
    const ip = addressOf(2000 + n);
    if (bucketOf(clientKey(ip)) < 50) offered.push(ip);
  }
  for (const ip of offered) await check(ip, '2.6.0');
  for (let i = 0; i < 9; i++) assert.is((await report(t, '2.6.0', offered[i]!)).status, 201);
  for (let i = 0; i < 9; i++) assert.is((await report(t, '2.6.0', addressOf(1000 + i), inside[i])).status, 201);
  assert.equal(await t.storage.usage.reporters('2.6.0', 0, t.clock.now()), { clients: 9, networks: 9 });
  assert.equal(await t.storage.installs.reporters('2.6.0', 0, t.clock.now()), { clients: 9, networks: 9 });
  assert.is((await release(t, '2.6.0')).haltedAt, null, '18 networks in all, but at most 9 of either kind');
});

test('a malformed install id in feedback is 400 invalid_request naming it, and nothing is stored', async ({ t }) => {
  const answer = await report(t, '2.4.1', addressOf(1), 'AAECAwQFBgcICQoLDA0OD');
  assert.is(answer.status, 400);
  assert.is(
    (bodyJson(answer) as { message: string }).message,
    'Field "installId" must be an install id: 16 bytes in base64url without padding (22 characters of A-Z a-z 0-9 - _).',
  );
  assert.equal(t.storage.feedback, []);
});

test.run();
