/**
 * The app's rollout rule over the update files: exact buckets (checked against node:crypto), the step in
 * force at its edges and after a halt, the target chosen, and the cohort properties: one seed per line
 * makes a hotfix's first step reach the installs its release's first step reached, and 50 basis points
 * admit about 0.5 % of installs.
 */
import { createHash, randomBytes } from 'node:crypto';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { basisPointsAt, chooseTarget, chooseTargetByBucket, cohortBucket, evaluationTime, installIdOk, TIMESTAMP_LIFETIME_MS } from '../../core/tuf/cohort.ts';
import type { ReleaseCustom, ReleaseTarget } from '../../core/tuf/feed.ts';

const test = suite('TUF cohort rule');
const T0 = Date.UTC(2026, 0, 1);
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** The bucket as the rule defines it, computed with node:crypto. */
const nodeBucket = (seedHex: string, id: string) =>
  Number(createHash('sha256').update(Buffer.concat([Buffer.from(seedHex, 'hex'), Buffer.from(id, 'utf8')])).digest().readBigUInt64BE(0) % 10000n);
const randomIds = (count: number) => Array.from({ length: count }, () => randomBytes(16).toString('base64url'));

function target(version: string, schedule: [number, number][], fields: Partial<ReleaseCustom> = {}): ReleaseTarget {
  return {
    length: 1,
    hashes: { sha256: '00'.repeat(32) },
    custom: {
      version,
      url: `https://d.example.com/${version}.msi`,
      publishedAt: iso(T0),
      notes: null,
      summary: '',
      critical: false,
      schedule: schedule.map(([at, basisPoints]) => ({ at: iso(at), basisPoints })),
      haltedAt: null,
      seed: '0a0b',
      ...fields,
    },
  };
}

test('buckets of fixed seeds and ids are the big-endian uint64 of SHA-256(seed || id) modulo 10000', async () => {
  const cases: [string, string, number][] = [
    ['0a0b', 'AAAAAAAAAAAAAAAAAAAAAA', 1578],
    ['00112233445566778899aabbccddeeff', 'q83vASNFZ4mrze8BI0VniQ', 790],
    ['ff', 'install-id-ü', 874],
  ];
  for (const [seed, id, bucket] of cases) {
    assert.is(await cohortBucket(seed, id), bucket, `${seed} ${id}`);
    assert.is(nodeBucket(seed, id), bucket);
  }
  for (const id of randomIds(200)) assert.is(await cohortBucket('c0ffee', id), nodeBucket('c0ffee', id));
});

test('an install id is 16 bytes of base64url: 22 characters, no padding', () => {
  assert.is(installIdOk(randomBytes(16).toString('base64url')), true);
  assert.is(installIdOk('q83vASNFZ4mrze8BI0VniQ'), true);
  assert.is(installIdOk('q83vASNFZ4mrze8BI0VniR'), false);
  assert.is(installIdOk('q83vASNFZ4mrze8BI0Vni'), false);
  assert.is(installIdOk('q83vASNFZ4mrze8BI0VniQ=='), false);
  assert.is(installIdOk('q83vASNFZ4mrze8BI0Vn+Q'), false);
});

test('basis points: 0 before the first step, a step from its exact time on, not 1 ms before', () => {
  const custom = target('2.6.1', [[T0, 50], [T0 + HOUR, 500], [T0 + 2 * HOUR, 10000]]).custom;
  assert.is(basisPointsAt(custom, T0 - 1), 0);
  assert.is(basisPointsAt(custom, T0), 50);
  assert.is(basisPointsAt(custom, T0 + HOUR - 1), 50);
  assert.is(basisPointsAt(custom, T0 + HOUR), 500);
  assert.is(basisPointsAt(custom, T0 + 2 * HOUR), 10000);
  assert.is(basisPointsAt(custom, T0 + 100 * HOUR), 10000);
});

test('after a halt no later step applies; a step at the halt itself does', () => {
  const schedule: [number, number][] = [[T0, 50], [T0 + HOUR, 500], [T0 + 2 * HOUR, 10000]];
  const halted = target('2.6.1', schedule, { haltedAt: iso(T0 + HOUR + 1) }).custom;
  assert.is(basisPointsAt(halted, T0 + 100 * HOUR), 500);
  assert.is(basisPointsAt(halted, T0 + 30 * 60_000), 50);
  assert.is(basisPointsAt(target('2.6.1', schedule, { haltedAt: iso(T0 + HOUR) }).custom, T0 + 100 * HOUR), 500);
  assert.is(basisPointsAt(target('2.6.1', schedule, { haltedAt: iso(T0 + HOUR - 1) }).custom, T0 + 100 * HOUR), 50);
});

test('the evaluation time is the clock, or the timestamp signing time when the clock is behind it', () => {
  assert.is(TIMESTAMP_LIFETIME_MS, 86_400_000);
  const expires = T0 + TIMESTAMP_LIFETIME_MS;
  assert.is(evaluationTime(T0 + 5, expires, TIMESTAMP_LIFETIME_MS), T0 + 5);
  assert.is(evaluationTime(T0 - HOUR, expires, TIMESTAMP_LIFETIME_MS), T0);
});

test('chosen: the highest version above the installed one whose basis points exceed the bucket, else null', async () => {
  const id = 'AAAAAAAAAAAAAAAAAAAAAA'; // bucket 1578 for seed 0a0b (the first test)
  const bucketFf = nodeBucket('ff', id);
  const targets = {
    'a.msi': target('2.6.0', [[T0, 10000]]),
    'b.msi': target('2.6.1', [[T0, 1578]]),
    'c.msi': target('2.7.0', [[T0, bucketFf + 1]], { seed: 'ff' }),
    'd.msi': target('2.8.0', [[T0 + HOUR, 10000]]),
  };
  assert.is((await chooseTarget(targets, '2.5.0', id, T0))?.name, 'c.msi');
  assert.is((await chooseTarget(targets, '2.7.0', id, T0))?.name ?? null, null);
  assert.is((await chooseTarget(targets, '2.7.0', id, T0 + HOUR))?.name, 'd.msi');
  const { 'c.msi': _, ...withoutC } = targets;
  assert.is((await chooseTarget(withoutC, '2.5.0', id, T0))?.name, 'a.msi');
  assert.is((await chooseTarget({ ...withoutC, 'b.msi': target('2.6.1', [[T0, 1579]]) }, '2.5.0', id, T0))?.name, 'b.msi');
  assert.is((await chooseTarget(targets, '2.6.0.7', id, T0))?.name, 'c.msi');
  assert.is(await chooseTarget({}, '2.5.0', id, T0), null);
});

test('chooseTargetByBucket decides as chooseTarget does, from buckets the app keeps', async () => {
  const id = 'AAAAAAAAAAAAAAAAAAAAAA';
  const bucketFf = nodeBucket('ff', id);
  const targets = {
    'a.msi': target('2.6.0', [[T0, 10000]]),
    'b.msi': target('2.6.1', [[T0, 1578]]),
    'c.msi': target('2.7.0', [[T0, bucketFf + 1]], { seed: 'ff' }),
  };
  const kept = new Map([[targets['a.msi'].custom.seed, nodeBucket(targets['a.msi'].custom.seed, id)], ['ff', bucketFf]]);
  for (const installed of ['2.5.0', '2.6.0', '2.6.1', '2.7.0']) {
    const synchronous = chooseTargetByBucket(targets, installed, (seed) => kept.get(seed)!, T0)?.name ?? null;
    assert.is(synchronous, (await chooseTarget(targets, installed, id, T0))?.name ?? null, installed);
  }
  assert.is(chooseTargetByBucket(targets, '2.5.0', () => 9999, T0)?.name, 'a.msi', 'the last bucket: only a 10000 step');
});

test("one seed per line: the installs in a release's 5 % step are exactly those in its hotfix's 5 % step", async () => {
  const ids = randomIds(4000);
  const first = target('2.6.0', [[T0, 500]]);
  const hotfix = target('2.6.1', [[T0 + HOUR, 500]]);
  const otherLine = target('2.7.0', [[T0, 500]], { seed: '0a0c' });
  const reached = async (t: ReleaseTarget) => {
    const admitted = [];
    for (const id of ids) if ((await chooseTarget({ t }, '2.5.0', id, T0 + HOUR))?.name === 't') admitted.push(id);
    return admitted;
  };
  const [a, b, c] = [await reached(first), await reached(hotfix), await reached(otherLine)];
  assert.ok(a.length > 100 && a.length < 300, `${a.length} of 4000 in a 5 % step`);
  assert.equal(b, a);
  assert.not.equal(c, a);
  for (const id of ids) assert.is((await chooseTarget({ first, hotfix }, '2.5.0', id, T0 + HOUR))?.name ?? null, a.includes(id) ? 'hotfix' : null);
});

test('a 50 basis-point step admits about 0.5 % of 100,000 random ids, never none', async () => {
  const custom = target('2.6.0', [[T0, 50]]).custom;
  let admitted = 0;
  for (const id of randomIds(100_000)) if ((await cohortBucket(custom.seed, id)) < basisPointsAt(custom, T0)) admitted++;
  // Binomial(100000, 0.005): mean 500, standard deviation 22.3; 5 deviations either side.
  assert.ok(admitted >= 389 && admitted <= 611, `${admitted} admitted`);
});

test.run();
