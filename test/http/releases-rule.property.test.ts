/**
 * The rollout rule against a small reference model (docs/releases.md): random sequences of publish (above
 * or below the highest version), widen, pull and restore through the operator API; after each step, for a
 * client of every bucket reached, GET /version and GET /download serve what the model says (its rollouts in
 * basis points, rounded down to whole percents for the 100 buckets of a check), and the operator list and
 * the Releases page show the model's share per release and for the baseline, of 10,000 buckets.
 */
import fc from 'fast-check';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { referenceBucketOf } from '../_siphash.ts';
import { clientKey } from '../../core/clients/client-ip.ts';
import { type InProcessOperator, startInProcessOperator } from '../_in-process.ts';
import { type SignedIn, signIn } from '../_pages.ts';
import { bodyJson, coreRequest } from '../_setup.ts';

const test = suite('the rollout rule against a reference model');
const WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64)';
const MSI = (version: string) => `https://downloads.example.com/LegacySheetConverter-${version}-x64.msi`;
const BASELINE = '2.4.1';

/** The model: each release's version fields, rollout in basis points and whether it is pulled. */
interface ModelRelease {
  version: string;
  fields: readonly [number, number, number];
  basisPoints: number;
  pulled: boolean;
}

/**
 * Rule 1, written plainly: the highest live version whose rollout is above the bucket, else the baseline;
 * of `buckets` buckets (100 for a `/version` check: its rollout rounded down to a whole percent; 10000).
 */
function modelServes(model: readonly ModelRelease[], bucket: number, buckets: 100 | 10000): string {
  let best: ModelRelease | undefined;
  for (const r of model) {
    if (r.pulled || Math.floor(r.basisPoints * buckets / 10000) <= bucket) continue;
    if (
      !best || r.fields[0] > best.fields[0] ||
      (r.fields[0] === best.fields[0] && (r.fields[1] > best.fields[1] || (r.fields[1] === best.fields[1] && r.fields[2] > best.fields[2])))
    ) best = r;
  }
  return best?.version ?? BASELINE;
}

/** Each version's share in percent (to two decimals): its buckets of 10,000, divided by 100. */
function modelShares(model: readonly ModelRelease[]): Map<string, number> {
  const shares = new Map<string, number>([[BASELINE, 0], ...model.map((r) => [r.version, 0] as const)]);
  for (let bucket = 0; bucket < 10000; bucket++) {
    const served = modelServes(model, bucket, 10000);
    shares.set(served, shares.get(served)! + 1);
  }
  return new Map([...shares].map(([version, basisPoints]) => [version, basisPoints / 100]));
}

type Step =
  | { kind: 'publish'; up: number; basisPoints: number }
  | { kind: 'publishLower'; basisPoints: number }
  | { kind: 'widen'; index: number; basisPoints: number }
  | { kind: 'pull'; index: number }
  | { kind: 'restore'; index: number };

/** Rollouts in basis points: whole percents, fractions of one (50: 0.5 %), anything to 10000. */
const basisPoints = fc.oneof(
  fc.constantFrom(0, 50, 500, 1000, 1250, 5000, 10000),
  fc.integer({ min: 0, max: 100 }).map((p) => p * 100),
  fc.integer({ min: 0, max: 10000 }),
);
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('publish' as const), up: fc.integer({ min: 0, max: 2 }), basisPoints }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('publishLower' as const), basisPoints }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('widen' as const), index: fc.nat(), basisPoints }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('pull' as const), index: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('restore' as const), index: fc.nat() }) },
);

let running: InProcessOperator;
let session: SignedIn;
/** One client address per bucket reached by 400 addresses. */
let clients: Map<number, string>;

/** A fresh server, signed in, and a client of each bucket (the buckets hang on the server's stored secret). */
async function start(): Promise<void> {
  running = await startInProcessOperator({ rateLimit: { name: 'test', limit: 1e9, windowSeconds: 60 } });
  session = await signIn(running.send);
  const bucketOf = referenceBucketOf(await running.server.storage.secret('voter-secret', () => 'unused'));
  clients = new Map();
  for (let i = 0; i < 400; i++) {
    const address = `198.51.${Math.floor(i / 200)}.${i % 200}`;
    const bucket = bucketOf(clientKey(address));
    if (!clients.has(bucket)) clients.set(bucket, address);
  }
}

async function checkAgainst(model: readonly ModelRelease[], label: string): Promise<void> {
  const { app, content } = running.server;
  const msiOf = (version: string) => (version === BASELINE ? content.download.msiUrl : MSI(version));
  for (const [bucket, clientIp] of clients) {
    const expected = modelServes(model, bucket, 100);
    const check = await app.handle(coreRequest({ path: '/api/v1/version', clientIp }));
    assert.equal(bodyJson(check), { version: expected, downloadUrl: msiOf(expected) }, `${label}: bucket ${bucket}`);
    const download = await app.handle(coreRequest({ path: '/api/v1/download', clientIp, headers: { 'user-agent': WINDOWS } }));
    assert.is(download.headers['location'], msiOf(expected), `${label}: download of bucket ${bucket}`);
  }
  const shares = modelShares(model);
  const listed = (await running.call('/releases')).json() as {
    releases: { version: string; servedPercent: number }[];
    baseline: { version: string; servedPercent: number };
  };
  assert.equal(
    Object.fromEntries([...listed.releases.map((r) => [r.version, r.servedPercent]), [listed.baseline.version, listed.baseline.servedPercent]]),
    Object.fromEntries(shares),
    `${label}: the list's shares`,
  );
  const page = (await session.get('/pages/releases')).text;
  const shown = Object.fromEntries(
    [...page.matchAll(/<h3 id="release-[^"]+">([\d.]+) <span class="badge strong">[^<]+<\/span> <span class="badge">served to ([\d.]+)% of clients/g)].map((
      m,
    ) => [m[1]!, Number(m[2])]),
  );
  const baselineShown = /The baseline, ([\d.]+) .*?, is served to ([\d.]+)% of clients/.exec(page);
  assert.equal({ ...shown, [baselineShown![1]!]: Number(baselineShown![2]) }, Object.fromEntries(shares), `${label}: the page's shares`);
}

test('every step serves, lists and shows what the model says', async () => {
  let runs = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), async (steps) => {
      await start();
      try {
        runs++;
        assert.ok(clients.size >= 90, `${clients.size} buckets reached`);
        const model: ModelRelease[] = [];
        let build = 0;
        for (const [i, s] of steps.entries()) {
          await apply(s, model, () => (build += s.kind === 'publish' ? s.up + 1 : 0), `run ${runs}, step ${i} ${JSON.stringify(s)}`);
        }
      } finally {
        await running.close();
      }
    }),
    { numRuns: 25 },
  );
});

/** One step through the operator API, the same in the model, then the check of every bucket. */
async function apply(s: Step, model: ModelRelease[], nextBuild: () => number, label: string): Promise<void> {
  if (s.kind === 'publish' || s.kind === 'publishLower') {
    const build = nextBuild();
    const version = s.kind === 'publish' ? `3.0.${build}` : '2.9.9';
    const answer = await running.call('/releases', { method: 'POST', json: { version, msiUrl: MSI(version), rolloutPercent: s.basisPoints / 100 } });
    if (s.kind === 'publishLower' && model.length > 0) {
      assert.is(answer.status, 409, label);
      assert.is((answer.json() as { code: string }).code, model.some((r) => r.version === version) ? 'release_exists' : 'release_not_higher', label);
    } else {
      assert.is(answer.status, 201, `${label}: ${answer.text}`);
      model.push({ version, fields: s.kind === 'publish' ? [3, 0, build] : [2, 9, 9], basisPoints: s.basisPoints, pulled: false });
    }
  } else {
    const chosen = model.length === 0 ? undefined : model[s.index % model.length];
    const version = chosen?.version ?? '3.99.0';
    const path = `/releases/${version}/${s.kind === 'widen' ? 'rollout' : s.kind}`;
    const answer = await running.call(path, { method: 'POST', ...(s.kind === 'widen' ? { json: { rolloutBasisPoints: s.basisPoints } } : {}) });
    if (!chosen) assert.is(answer.status, 404, label);
    else if (s.kind === 'widen' && chosen.pulled) assert.is((answer.json() as { code: string }).code, 'release_pulled', label);
    else {
      assert.is(answer.status, 200, `${label}: ${answer.text}`);
      if (s.kind === 'widen') chosen.basisPoints = s.basisPoints;
      else chosen.pulled = s.kind === 'pull';
    }
  }
  await checkAgainst(model, label);
}

test.run();
