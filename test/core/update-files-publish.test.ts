/**
 * The update files as the app signs and serves them (issue 54, core/updates/publisher.ts), read by a stock
 * TUF client: tuf-js's Updater, pinned to the channel's first root, fetching through `app.handle` in
 * process. Releases become targets with their schedules; a halt reaches the files at the next refresh;
 * nothing is signed while nothing is due; the timestamp alone is signed again before it expires; and two
 * instances signing at once store one set of files, which both serve.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createMemoryStorage } from '../../adapters/memory/index.ts';
import type { App } from '../../core/app.ts';
import { generateSigningKey } from '../../core/licensing/license.ts';
import type { UpdateFile } from '../../core/ports/update-files.ts';
import { buildRoot, createTufSigner, envelopeText, expiresMs, type ReleaseCustom, signEnvelope, type TufSigner } from '../../core/tuf/index.ts';
import { bodyText, coreRequest, createTestApp, manualClock } from '../_setup.ts';
import { type StorageOutage, storageOutage } from '../_storage-outage.ts';
import { AppFetcher, tufJsClient } from '../_tuf-js.ts';

const BASE = 'http://updates.test/updates/stable/';
/** The last setUp's storage switch: `down()` makes every store call fail, as a lost database does. */
let outage: StorageOutage;
const DAY = 86_400_000;
const HOUR = 3_600_000;
const msi = (version: string) => new TextEncoder().encode(`the installer of ${version}\n`.repeat(64));
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function channelRoot(online: TufSigner, start: number): Promise<UpdateFile> {
  const rootKey = await createTufSigner(await generateSigningKey());
  const signed = await buildRoot({ version: 1, expires: start + 365 * DAY, rootKeys: [rootKey.key], rootThreshold: 1, onlineKey: online.key });
  const text = envelopeText(await signEnvelope(signed, [rootKey]));
  return { channel: 'stable', role: 'root', version: 1, text, storedAt: start, expiresAt: expiresMs(signed.expires) };
}

async function setUp() {
  const start = Math.floor(Date.now() / 1000) * 1000;
  const clock = manualClock(start);
  const storage = createMemoryStorage({ clock });
  const online = await createTufSigner(await generateSigningKey());
  const root = await channelRoot(online, start);
  await storage.change(async (tx) => void (await tx.updateFiles.putUpdateFile(root)));
  const installers = new Map<string, Uint8Array>();
  const publish = async (version: string, extra: Record<string, unknown> = {}) => {
    const bytes = msi(version);
    const msiUrl = `https://downloads.example.com/LegacySheetConverter-${version}-x64.msi`;
    installers.set(msiUrl, bytes);
    await storage.change(async (tx) => {
      await tx.releases.publishRelease({
        version,
        msiUrl,
        notesUrl: null,
        rolloutBasisPoints: 10000,
        publishedAt: clock.now(),
        sha256: sha256(bytes),
        size: bytes.length,
        ...extra,
      });
    });
  };
  outage = storageOutage(storage);
  const made = await createTestApp({ storage: outage.storage, clock, updates: { signer: online } });
  const client = () => tufJsClient({ root: root.text }, new AppFetcher(made.app, installers), BASE);
  const versions = async () =>
    Object.fromEntries(
      await Promise.all(
        (['targets', 'snapshot', 'timestamp'] as const).map(async (
          role,
        ) => [role, (await storage.updateFiles.newestUpdateFile('stable', role))?.version ?? null]),
      ),
    );
  return { ...made, clock, storage, online, publish, client, versions };
}

test('a release at 100 % and one ramping: tuf-js refreshes, finds both targets with their schedules, and downloads the newer', async () => {
  const { app, clock, publish, client, versions } = await setUp();
  await publish('2.6.2');
  await publish('2.7.0', { rolloutBasisPoints: 500, ramp: { basisPoints: [500, 2500, 10000], everyMs: DAY, startAt: clock.now() } });
  await app.refreshReleases();
  assert.equal(await versions(), { targets: 1, snapshot: 1, timestamp: 1 });
  const { updater, dir, remove } = client();
  try {
    await updater.refresh();
    const newer = await updater.getTargetInfo('LegacySheetConverter-2.7.0-x64.msi');
    const older = await updater.getTargetInfo('LegacySheetConverter-2.6.2-x64.msi');
    assert.ok(newer && older);
    const custom = newer!.custom as unknown as ReleaseCustom;
    const iso = (ms: number) => new Date(ms).toISOString();
    assert.equal(custom.schedule, [
      { at: iso(clock.now()), basisPoints: 500 },
      { at: iso(clock.now() + DAY), basisPoints: 2500 },
      { at: iso(clock.now() + 2 * DAY), basisPoints: 10000 },
    ]);
    assert.is(custom.haltedAt, null);
    assert.is(custom.version, '2.7.0');
    assert.match(custom.seed, /^[0-9a-f]{32}$/);
    assert.is.not(custom.seed, (older!.custom as unknown as ReleaseCustom).seed, '2.6 and 2.7 are two lines: two cohorts');
    const path = await updater.downloadTarget(newer!, join(dir, 'targets', 'new.msi'));
    assert.equal(new Uint8Array(readFileSync(path)), msi('2.7.0'));
  } finally {
    remove();
  }
});

test('nothing due: a refresh signs nothing; a halt signs a new targets, snapshot and timestamp that carry haltedAt', async () => {
  const { app, clock, storage, publish, client, versions } = await setUp();
  await publish('2.7.0', { rolloutBasisPoints: 500, ramp: { basisPoints: [500, 10000], everyMs: DAY, startAt: clock.now() } });
  await app.refreshReleases();
  clock.advance(HOUR);
  await app.refreshReleases();
  assert.equal(await versions(), { targets: 1, snapshot: 1, timestamp: 1 });
  const haltedAt = clock.now();
  await storage.change(async (tx) => void (await tx.releases.haltRelease('2.7.0', haltedAt, 'bug reports')));
  await app.refreshReleases();
  assert.equal(await versions(), { targets: 2, snapshot: 2, timestamp: 2 });
  const { updater, remove } = client();
  try {
    await updater.refresh();
    const target = await updater.getTargetInfo('LegacySheetConverter-2.7.0-x64.msi');
    assert.is((target!.custom as unknown as ReleaseCustom).haltedAt, new Date(haltedAt).toISOString());
  } finally {
    remove();
  }
});

test('the timestamp alone is signed again once 12 hours are left of its 24 (the old one pruned), and a pulled release leaves the targets', async () => {
  const { app, clock, storage, publish, versions } = await setUp();
  await publish('2.6.2');
  await publish('2.7.0');
  await app.refreshReleases();
  clock.advance(12 * HOUR - 1000);
  await app.refreshReleases();
  assert.equal(await versions(), { targets: 1, snapshot: 1, timestamp: 1 });
  clock.advance(1000);
  await app.refreshReleases();
  assert.equal(await versions(), { targets: 1, snapshot: 1, timestamp: 2 });
  const kept = async () => (await storage.updateFiles.listUpdateFiles('stable')).map((file) => `${file.role} ${file.version}`).sort();
  assert.equal(await kept(), ['root 1', 'snapshot 1', 'targets 1', 'timestamp 2'], 'timestamp 1, 12 hours old, went with the change that superseded it');
  await storage.change(async (tx) => void (await tx.releases.pullRelease('2.7.0', clock.now())));
  await app.refreshReleases();
  assert.equal(await versions(), { targets: 2, snapshot: 2, timestamp: 3 });
  const targets = JSON.parse((await storage.updateFiles.newestUpdateFile('stable', 'targets'))!.text).signed.targets;
  assert.equal(Object.keys(targets), ['LegacySheetConverter-2.6.2-x64.msi']);
});

test('two instances signing at once store one set of files, and both serve its bytes', async () => {
  const { app, clock, storage, online, publish } = await setUp();
  const other = await createTestApp({ storage, clock, updates: { signer: online } });
  await publish('2.7.0');
  await Promise.all([app.refreshReleases(), other.app.refreshReleases()]);
  const stored = await storage.updateFiles.listUpdateFiles('stable');
  assert.equal(stored.map((file) => `${file.role} ${file.version}`).sort(), ['root 1', 'snapshot 1', 'targets 1', 'timestamp 1']);
  const served = async (target: App) => bodyText(await target.handle(coreRequest({ path: '/updates/stable/timestamp.json' })));
  assert.is(await served(app), await served(other.app));
  assert.is(await served(app), stored.find((file) => file.role === 'timestamp')!.text);
});

test('without a root that names its online key, an app signs nothing and says so once', async () => {
  const start = Math.floor(Date.now() / 1000) * 1000;
  const clock = manualClock(start);
  const storage = createMemoryStorage({ clock });
  const someoneElse = await createTufSigner(await generateSigningKey());
  await storage.change(async (tx) => void (await tx.updateFiles.putUpdateFile(await channelRoot(someoneElse, start))));
  const { app, logger } = await createTestApp({ storage, clock, updates: { signer: await createTufSigner(await generateSigningKey()) } });
  await app.refreshReleases();
  await app.refreshReleases();
  assert.equal((await storage.updateFiles.listUpdateFiles('stable')).map((file) => file.role), ['root']);
  assert.is(logger.lines.filter((line) => line.message.startsWith('update files: the newest root does not name this online key')).length, 1);
});

test("a target's summary: the titles of the visible roadmap items that name its version, read again within a minute", async () => {
  const { app, clock, storage, publish } = await setUp();
  const feature = (title: string, visible: boolean) => ({ title, description: '', category: 'import', visible, release_version: '2.7.0' });
  await storage.change(async (tx) => {
    await tx.features.create(feature('Quattro Pro input', true));
    await tx.features.create(feature('A hidden idea', false));
  });
  await publish('2.7.0');
  await app.refreshReleases();
  const summary = async () => {
    const targets = JSON.parse((await storage.updateFiles.newestUpdateFile('stable', 'targets'))!.text) as {
      signed: { targets: Record<string, { custom: ReleaseCustom }> };
    };
    return targets.signed.targets['LegacySheetConverter-2.7.0-x64.msi']!.custom.summary;
  };
  assert.is(await summary(), 'Quattro Pro input');
  // The change that stored the files is one of this app's: the next refresh reads the items again.
  await app.refreshReleases();
  await storage.change(async (tx) => void (await tx.features.create(feature('Faster PDF export', true))));
  clock.advance(59_000);
  await app.refreshReleases();
  assert.is(await summary(), 'Quattro Pro input', 'read at most once a minute');
  clock.advance(1_000);
  await app.refreshReleases();
  assert.is(await summary(), 'Quattro Pro input; Faster PDF export');
});

test('sizes: the timestamp is at most 1 KiB, and targets listing 10 releases at most 10 KiB', async () => {
  const { app, storage, publish } = await setUp();
  for (let minor = 0; minor < 10; minor++) await publish(`3.${minor}.12`, { notesUrl: `https://www.example.com/releases/3.${minor}.12` });
  await app.refreshReleases();
  const newest = async (role: 'timestamp' | 'targets') => (await storage.updateFiles.newestUpdateFile('stable', role))!.text;
  const targets = JSON.parse(await newest('targets')) as { signed: { targets: Record<string, unknown> } };
  assert.is(Object.keys(targets.signed.targets).length, 10, 'the newest of each of ten lines');
  const bytes = (text: string) => new TextEncoder().encode(text).length;
  assert.ok(bytes(await newest('timestamp')) <= 1024, `timestamp: ${bytes(await newest('timestamp'))} bytes`);
  assert.ok(bytes(await newest('targets')) <= 10 * 1024, `targets: ${bytes(await newest('targets'))} bytes`);
});

test('a database outage keeps the signed files served from memory, byte for byte', async () => {
  const { app, publish } = await setUp();
  await publish('2.7.0');
  await app.refreshReleases();
  const paths = ['/updates/stable/timestamp.json', '/updates/stable/1.snapshot.json', '/updates/stable/1.targets.json', '/updates/stable/1.root.json'];
  const before = await Promise.all(paths.map(async (path) => bodyText(await app.handle(coreRequest({ path })))));
  outage.down();
  await app.refreshReleases().then(() => assert.unreachable('the refresh reads a storage that is down'), () => {});
  for (const [i, path] of paths.entries()) {
    const answer = await app.handle(coreRequest({ path }));
    assert.is(answer.status, 200, path);
    assert.is(bodyText(answer), before[i], path);
  }
});

test.run();
