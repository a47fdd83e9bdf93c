/**
 * Rollouts in basis points through the operator API: a publish, a widen and a ramp given in basis points or
 * in percent to two decimals answer both; `/version`, with whole-percent buckets, reads each rounded down;
 * what is neither, both, or finer than a basis point is a 400 naming the field.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { referenceBucketOf } from '../_siphash.ts';
import { clientKey } from '../../core/clients/client-ip.ts';
import { type InProcessOperator, type InProcessServer, startInProcessOperator } from '../_in-process.ts';

const MSI = (version: string) => `https://downloads.example.com/LegacySheetConverter-${version}-x64.msi`;
const test = suite('rollouts in basis points');

let running: InProcessOperator;
let server: InProcessServer;

test.before.each(async () => {
  running = await startInProcessOperator();
  ({ server } = running);
});
test.after.each(() => running.close());

const post = (path: string, json: unknown) => running.call(path, { method: 'POST', json });
/** 200 client addresses, each its own rollout bucket draw. */
const CLIENTS = Array.from({ length: 200 }, (_, i) => `198.51.100.${i}`);

/** The versions `/version` serves the 200 clients, counted. */
async function servedCounts(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const from of CLIENTS) {
    const answer = await server.request({ path: '/api/v1/version', from });
    const { version } = answer.json() as { version: string };
    counts[version] = (counts[version] ?? 0) + 1;
  }
  return counts;
}

test('half a percent: the answer gives both units; /version rounds it down to 0 % and serves everyone the baseline', async () => {
  const published = await post('/releases', { version: '2.5.0', msiUrl: MSI('2.5.0'), rolloutPercent: 0.5 });
  assert.is(published.status, 201, published.text);
  const body = published.json() as Record<string, unknown>;
  assert.equal([body['rolloutBasisPoints'], body['rolloutPercent'], body['servedBasisPoints'], body['servedPercent']], [50, 0.5, 50, 0.5]);
  assert.equal(await servedCounts(), { '2.4.1': 200 });
  const list = (await running.call('/releases')).json() as { baseline: unknown };
  assert.equal(list.baseline, { version: '2.4.1', msiUrl: server.content.download.msiUrl, servedBasisPoints: 9950, servedPercent: 99.5 });
});

test('a widen in basis points: 12.5 % is 1250; /version serves it to the clients of 12 of its 100 buckets; the audit says 12.5%', async () => {
  assert.is((await post('/releases', { version: '2.5.0', msiUrl: MSI('2.5.0'), rolloutBasisPoints: 0 })).status, 201);
  const widened = await post('/releases/2.5.0/rollout', { rolloutBasisPoints: 1250 });
  assert.is(widened.status, 200, widened.text);
  const body = widened.json() as Record<string, unknown>;
  assert.equal([body['rolloutBasisPoints'], body['rolloutPercent']], [1250, 12.5]);
  const bucketOf = referenceBucketOf(await server.storage.secret('voter-secret', () => 'unused'));
  const expected = CLIENTS.filter((client) => bucketOf(clientKey(client)) < 12).length;
  assert.ok(expected > 5 && expected < 50, `${expected} of 200 in the first 12 buckets`);
  const counts = await servedCounts();
  assert.is(counts['2.5.0'] ?? 0, expected);
  const audit = (await running.call('/audit')).json() as { entries: { action: string; target: string }[] };
  assert.equal(audit.entries.map((e) => e.target), ['2.5.0 at 12.5%', '2.5.0 at 0%']);
});

test('a ramp in basis points needs no rollout: it starts at its first step; in percent it must match the rollout given', async () => {
  const ramped = await post('/releases', { version: '2.5.0', msiUrl: MSI('2.5.0'), ramp: { basisPoints: [50, 500, 10000], everyMinutes: 60 } });
  assert.is(ramped.status, 201, ramped.text);
  const view = ramped.json() as { rolloutBasisPoints: number; ramp: { basisPoints: number[]; steps: number[] } };
  assert.equal([view.rolloutBasisPoints, view.ramp.basisPoints, view.ramp.steps], [50, [50, 500, 10000], [0.5, 5, 100]]);
  const mismatch = await post('/releases', { version: '2.6.0', msiUrl: MSI('2.6.0'), rolloutPercent: 1, ramp: { steps: [0.5, 100], everyMinutes: 60 } });
  assert.is(mismatch.status, 400);
  assert.equal(mismatch.json(), {
    code: 'invalid_request',
    message: "The rollout (100 basis points) must be the ramp's first step (50 basis points) when a ramp is given.",
    resolution: 'Fix the request body or query as the message says; /openapi.json describes every field.',
  });
});

test('bad rollouts: neither, both, finer than a basis point, above 10000: a 400 naming the field, and nothing is stored', async () => {
  const refusals: [unknown, string][] = [
    [{}, 'Field "rolloutBasisPoints" (0-10000, 50 is 0.5 %) or "rolloutPercent" (0-100, to two decimals) is required.'],
    [{ rolloutPercent: 1, rolloutBasisPoints: 100 }, 'Give "rolloutBasisPoints" or "rolloutPercent", not both: they are the same share in two units.'],
    [{ rolloutPercent: 0.125 }, 'Field "rolloutPercent" must have at most two decimals (0.01 % is the smallest step, one basis point).'],
    [{ rolloutBasisPoints: 12.5 }, 'Field "rolloutBasisPoints" must be a whole number of basis points (hundredths of a percent).'],
    [{ rolloutPercent: -1 }, 'Field "rolloutPercent" must be at least 0.'],
    [{ rolloutBasisPoints: 10001 }, 'Field "rolloutBasisPoints" must be at most 10000 (every client).'],
    [
      { ramp: { basisPoints: [50, 100], steps: [0.5, 1], everyMinutes: 60 } },
      'Give "ramp.basisPoints" or "ramp.steps", not both: they are the same rollouts in two units.',
    ],
  ];
  for (const [fields, message] of refusals) {
    const answer = await post('/releases', { version: '2.5.0', msiUrl: MSI('2.5.0'), ...(fields as object) });
    assert.is(answer.status, 400, JSON.stringify(fields));
    assert.equal(answer.json(), {
      code: 'invalid_request',
      message,
      resolution: 'Fix the request body or query as the message says; /openapi.json describes every field.',
    });
  }
  assert.equal(((await running.call('/releases')).json() as { releases: unknown[] }).releases, []);
});

test.run();
