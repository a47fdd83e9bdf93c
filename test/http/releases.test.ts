/**
 * Stored releases, in process (app.handle): GET /version and GET /download serve one release per client,
 * staged by a stable rollout bucket, and follow a publish, a widening and a pull within a second.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { referenceBucketOf } from '../_siphash.ts';
import { parseCidrList } from '../../core/clients/cidr.ts';
import { clientKey } from '../../core/clients/client-ip.ts';
import { type InProcessServer, startInProcessServer } from '../_in-process.ts';

const test = suite('releases over HTTP');
const WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64)';
const MSI = (version: string) => `https://downloads.example.com/LegacySheetConverter-${version}-x64.msi`;
/** 300 client addresses, each its own rollout bucket draw. */
const CLIENTS = Array.from({ length: 300 }, (_, i) => `198.51.${Math.floor(i / 200)}.${i % 200}`);

let server: InProcessServer;
test.before.each(async () => {
  server = await startInProcessServer({}, { trustedProxies: parseCidrList('127.0.0.1/32') });
});
test.after.each(() => server.close());

const versionOf = async (client: string) =>
  (await server.request({ path: '/api/v1/version', headers: { 'x-forwarded-for': client } })).json() as { version: string; downloadUrl: string };
const downloadOf = async (client: string) =>
  (await server.request({ path: '/api/v1/download', headers: { 'x-forwarded-for': client, 'user-agent': WINDOWS } })).headers['location'];

/** Each client's bucket, worked out as the server does: the keyed hash under the stored voter secret. */
async function bucketsOf(clients: readonly string[]): Promise<Map<string, number>> {
  const bucketOf = referenceBucketOf(await server.storage.secret('voter-secret', () => 'unused'));
  return new Map(clients.map((client) => [client, bucketOf(clientKey(client))]));
}

/** Publishes straight to storage, `rolloutPercent` as basis points. */
const publish = (version: string, rolloutPercent: number) =>
  server.storage.change((tx) =>
    tx.releases.publishRelease({ version, msiUrl: MSI(version), notesUrl: null, rolloutBasisPoints: rolloutPercent * 100, publishedAt: server.clock.now() })
  );

test('before any stored release, the version file and the configured MSI are served', async () => {
  assert.equal(await versionOf('198.51.0.1'), { version: '2.4.1', downloadUrl: server.content.download.msiUrl });
  assert.is(await downloadOf('198.51.0.1'), server.content.download.msiUrl);
});

test('a staged release: the clients below its percentage get it, the others the release before; each pair is one release', async () => {
  await publish('2.5.0', 100);
  await publish('2.6.0', 10);
  server.clock.advance(1000);
  const buckets = await bucketsOf(CLIENTS);
  const staged: string[] = [];
  for (const client of CLIENTS) {
    const answer = await versionOf(client);
    const expected = buckets.get(client)! < 10 ? '2.6.0' : '2.5.0';
    assert.equal(answer, { version: expected, downloadUrl: MSI(expected) }, client);
    assert.is(await downloadOf(client), MSI(expected), `${client} downloads the MSI its update check named`);
    if (expected === '2.6.0') staged.push(client);
  }
  // About a tenth of the clients, and the same ones on every check.
  assert.ok(staged.length >= 15 && staged.length <= 50, `${staged.length} of 300 staged`);
  for (const client of staged.slice(0, 5)) assert.is((await versionOf(client)).version, '2.6.0');
});

test('widening to 100 % serves everyone the new release within a second; pulling it goes back to the one before', async () => {
  await publish('2.5.0', 100);
  await publish('2.6.0', 10);
  server.clock.advance(1000);
  const first = await versionOf('198.51.0.7');
  assert.ok(['2.5.0', '2.6.0'].includes(first.version));
  await server.storage.change((tx) => tx.releases.setRollout('2.6.0', 10000));
  server.clock.advance(1000);
  for (const client of CLIENTS.slice(0, 40)) assert.equal(await versionOf(client), { version: '2.6.0', downloadUrl: MSI('2.6.0') });
  await server.storage.change((tx) => tx.releases.pullRelease('2.6.0', server.clock.now()));
  server.clock.advance(1000);
  for (const client of CLIENTS.slice(0, 40)) {
    assert.equal(await versionOf(client), { version: '2.5.0', downloadUrl: MSI('2.5.0') });
    assert.is(await downloadOf(client), MSI('2.5.0'));
  }
});

test('a first release below 100 % is staged against the configured baseline', async () => {
  await publish('2.5.0', 50);
  server.clock.advance(1000);
  const buckets = await bucketsOf(CLIENTS.slice(0, 60));
  for (const [client, bucket] of buckets) {
    const expected = bucket < 50 ? { version: '2.5.0', downloadUrl: MSI('2.5.0') } : { version: '2.4.1', downloadUrl: server.content.download.msiUrl };
    assert.equal(await versionOf(client), expected, client);
  }
});

test('clients of one IPv6 /64 share a bucket', async () => {
  const buckets = await bucketsOf(['2001:db8:1:2::1', '2001:db8:1:2:ffff::9']);
  assert.is(new Set(buckets.values()).size, 1);
});

test('releases published, widened and pulled under load: every update check pairs a version with its own MSI', async () => {
  const baseline = server.content.download.msiUrl;
  const pairs = new Map([['2.4.1', baseline], ['2.5.0', MSI('2.5.0')], ['2.6.0', MSI('2.6.0')], ['2.7.0', MSI('2.7.0')]]);
  const msis = new Set(pairs.values());
  let stop = false;
  let checked = 0;
  const seen = new Set<string>();
  // Eight clients asking in a loop, each from its own address, while the releases change.
  const load = Array.from({ length: 8 }, async (_, i) => {
    try {
      while (!stop) {
        const client = CLIENTS[(checked + i * 37) % CLIENTS.length]!;
        const answer = await versionOf(client);
        assert.is(answer.downloadUrl, pairs.get(answer.version), `${answer.version} with its own MSI`);
        assert.ok(msis.has((await downloadOf(client))!), 'the download is one of the releases');
        seen.add(answer.version);
        checked++;
        // In process an answer may come without a turn of the event loop: let the changes below run.
        await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      // A failed check ends the run at once (the loop below stops waiting for answers).
      stop = true;
    }
  });
  const steps: (() => Promise<unknown>)[] = [
    () => publish('2.5.0', 100),
    () => publish('2.6.0', 10),
    () => server.storage.change((tx) => tx.releases.setRollout('2.6.0', 5000)),
    () => publish('2.7.0', 30),
    () => server.storage.change((tx) => tx.releases.pullRelease('2.7.0', server.clock.now())),
    () => server.storage.change((tx) => tx.releases.setRollout('2.6.0', 10000)),
    () => server.storage.change((tx) => tx.releases.pullRelease('2.6.0', server.clock.now())),
  ];
  for (const step of steps) {
    await step();
    // Let answers run between the changes, then move the clock past the view's refresh.
    const until = checked + 40;
    while (checked < until && !stop) await new Promise((resolve) => setImmediate(resolve));
    server.clock.advance(1000);
  }
  stop = true;
  await Promise.all(load);
  assert.ok(checked >= steps.length * 40, `${checked} answers checked`);
  assert.ok(seen.has('2.5.0') && seen.has('2.6.0'), [...seen].join(', '));
  assert.equal(await versionOf('198.51.0.9'), { version: '2.5.0', downloadUrl: MSI('2.5.0') }, 'after the last pull');
});

test.run();
