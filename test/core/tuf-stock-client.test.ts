/**
 * The update files checked by a stock TUF client: tuf-js's Updater, reading a repository built here in
 * memory through its `fetcher` option (no socket). It refreshes, finds a target with its `custom`, and
 * downloads its bytes from the consistent-snapshot path `{sha256}.{name}`; it walks a rotated root; and it
 * refuses a timestamp signed by a key root does not list, an expired timestamp, and a rolled-back
 * snapshot, each with the error tuf-js gives.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Updater } from 'tuf-js';
import { BadVersionError, ExpiredMetadataError, RuntimeError } from 'tuf-js/dist/error.js';
import { LengthOrHashMismatchError, UnsignedMetadataError } from '@tufjs/models/dist/error.js';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { generateSigningKey } from '../../core/licensing/license.ts';
import type { Release } from '../../core/ports/release-store.ts';
import {
  buildRoot,
  buildSnapshot,
  buildTargets,
  buildTimestamp,
  createTufSigner,
  envelopeText,
  feedTargets,
  type MetaEntry,
  metaEntryOf,
  type ReleaseTarget,
  type RootSigned,
  signEnvelope,
  type TufSigner,
} from '../../core/tuf/index.ts';
import { MapFetcher, TUF_BASE } from '../_tuf-js.ts';

const DAY = 86_400_000;
const encoder = new TextEncoder();

function release(version: string, msi: Uint8Array, rolloutBasisPoints: number): Release {
  return {
    version,
    msiUrl: `https://downloads.example.com/converter-${version}.msi`,
    notesUrl: `https://www.example.com/notes/${version}`,
    channel: 'stable',
    rolloutBasisPoints,
    publishedAt: Date.UTC(2026, 0, 1),
    pulledAt: null,
    sha256: createHash('sha256').update(msi).digest('hex'),
    size: msi.length,
    critical: false,
    ramp: null,
    haltedAt: null,
    haltReason: null,
    announcedStep: 0,
  };
}

/** A channel's files, published as the server would publish them. */
class Repository {
  readonly files = new Map<string, Uint8Array>();
  readonly now = Date.now();
  online!: TufSigner;

  private put(path: string, text: string): Promise<MetaEntry> {
    this.files.set(path, encoder.encode(text));
    return metaEntryOf(text);
  }
  async root(signed: RootSigned, signers: TufSigner[]): Promise<string> {
    const text = envelopeText(await signEnvelope(signed, signers));
    await this.put(`${signed.version}.root.json`, text);
    return text;
  }
  async targets(version: number, targets: Record<string, ReleaseTarget>): Promise<MetaEntry> {
    return this.put(
      `${version}.targets.json`,
      envelopeText(await signEnvelope(buildTargets({ version, expires: this.now + 7 * DAY, targets }), [this.online])),
    );
  }
  async snapshot(version: number, targets: MetaEntry): Promise<MetaEntry> {
    return this.put(
      `${version}.snapshot.json`,
      envelopeText(await signEnvelope(buildSnapshot({ version, expires: this.now + 7 * DAY, targets }), [this.online])),
    );
  }
  async timestamp(version: number, snapshot: MetaEntry, options: { expires?: number; signer?: TufSigner } = {}): Promise<void> {
    const signed = buildTimestamp({ version, expires: options.expires ?? this.now + DAY, snapshot });
    await this.put('timestamp.json', envelopeText(await signEnvelope(signed, [options.signer ?? this.online])));
  }
}

interface Context {
  repo: Repository;
  rootKey: TufSigner;
  root1: string;
  targets: Record<string, ReleaseTarget>;
  msis: Map<string, Uint8Array>;
  dir: string;
}

const test = suite<Context>('TUF update files through tuf-js');

test.before.each(async (context) => {
  context.repo = new Repository();
  context.rootKey = await createTufSigner(await generateSigningKey());
  context.repo.online = await createTufSigner(await generateSigningKey());
  const root = await buildRoot({
    version: 1,
    expires: context.repo.now + 365 * DAY,
    rootKeys: [context.rootKey.key],
    rootThreshold: 1,
    onlineKey: context.repo.online.key,
  });
  context.root1 = await context.repo.root(root, [context.rootKey]);
  const msis = new Map([['2.6.0', encoder.encode('MSI of 2.6.0')], ['2.6.1', encoder.encode('MSI of 2.6.1, a hotfix')]]);
  const releases = [release('2.6.0', msis.get('2.6.0')!, 10000), release('2.6.1', msis.get('2.6.1')!, 500)];
  context.targets = feedTargets(releases, { summaryOf: (version) => `Version ${version}`, seedOf: () => '5eed' });
  for (const [name, target] of Object.entries(context.targets)) {
    context.repo.files.set(`targets/${target.hashes.sha256}.${name}`, msis.get(target.custom.version)!);
  }
  context.msis = msis;
  await context.repo.timestamp(1, await context.repo.snapshot(1, await context.repo.targets(1, context.targets)));
  context.dir = mkdtempSync(join(tmpdir(), 'tuf-stock-client-'));
  mkdirSync(join(context.dir, 'metadata'));
  mkdirSync(join(context.dir, 'targets'));
  writeFileSync(join(context.dir, 'metadata', 'root.json'), context.root1);
});

test.after.each((context) => rmSync(context.dir, { recursive: true, force: true }));

const updaterOf = (context: Context, fetcher = new MapFetcher(context.repo.files)) =>
  new Updater({
    metadataDir: join(context.dir, 'metadata'),
    metadataBaseUrl: TUF_BASE,
    targetDir: join(context.dir, 'targets'),
    targetBaseUrl: `${TUF_BASE}targets/`,
    fetcher,
  });

async function refused(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('tuf-js accepted it');
}

test('tuf-js refreshes, finds each target with its custom fields, and downloads its bytes from {sha256}.{name}', async (context) => {
  const fetcher = new MapFetcher(context.repo.files);
  const updater = updaterOf(context, fetcher);
  await updater.refresh();
  assert.equal(fetcher.asked, ['2.root.json', 'timestamp.json', '1.snapshot.json', '1.targets.json']);
  assert.equal(Object.keys(context.targets), ['converter-2.6.1.msi', 'converter-2.6.0.msi']);
  for (const [name, target] of Object.entries(context.targets)) {
    const info = await updater.getTargetInfo(name);
    assert.ok(info, name);
    assert.is(info.path, name);
    assert.is(info.length, target.length);
    assert.equal(info.hashes, { sha256: target.hashes.sha256 });
    assert.equal(info.custom, target.custom);
    const path = await updater.downloadTarget(info);
    assert.is(fetcher.asked.at(-1), `targets/${target.hashes.sha256}.${name}`);
    assert.equal(new Uint8Array(readFileSync(path)), context.msis.get(target.custom.version));
  }
  assert.equal((await updater.getTargetInfo('converter-2.6.1.msi'))!.custom, {
    version: '2.6.1',
    url: 'https://downloads.example.com/converter-2.6.1.msi',
    publishedAt: '2026-01-01T00:00:00.000Z',
    notes: 'https://www.example.com/notes/2.6.1',
    summary: 'Version 2.6.1',
    critical: false,
    schedule: [{ at: '2026-01-01T00:00:00.000Z', basisPoints: 500 }],
    haltedAt: null,
    seed: '5eed',
  });
  assert.is(await updater.getTargetInfo('converter-2.5.0.msi'), undefined);
});

test('an installer whose bytes differ from the listed hash is refused', async (context) => {
  const target = context.targets['converter-2.6.0.msi']!;
  context.repo.files.set(`targets/${target.hashes.sha256}.converter-2.6.0.msi`, encoder.encode('MSI of 2.6.X'));
  const updater = updaterOf(context);
  const error = await refused(updater.downloadTarget((await updater.getTargetInfo('converter-2.6.0.msi'))!));
  assert.instance(error, LengthOrHashMismatchError);
  assert.match(error.message, /^Expected hash [0-9a-f]{64} but got [0-9a-f]{64}$/);
});

/** Root 2 of the repository, with a new root key (returned) and the repository's online key as it is now. */
async function secondRoot(context: Context) {
  const newRootKey = await createTufSigner(await generateSigningKey());
  const signed = await buildRoot({
    version: 2,
    expires: context.repo.now + 365 * DAY,
    rootKeys: [newRootKey.key],
    rootThreshold: 1,
    onlineKey: context.repo.online.key,
  });
  return { newRootKey, signed };
}

test('a rotated root, signed by the old and the new root keys, is walked: metadata signed by its new online key verifies', async (context) => {
  context.repo.online = await createTufSigner(await generateSigningKey());
  const { newRootKey, signed: root2 } = await secondRoot(context);
  const root2Text = await context.repo.root(root2, [context.rootKey, newRootKey]);
  await context.repo.timestamp(2, await context.repo.snapshot(2, await context.repo.targets(2, context.targets)));
  const updater = updaterOf(context);
  await updater.refresh();
  assert.is(readFileSync(join(context.dir, 'metadata', 'root.json'), 'utf8'), root2Text);
  assert.equal((await updater.getTargetInfo('converter-2.6.0.msi'))?.custom, context.targets['converter-2.6.0.msi']!.custom);
});

test('a rotated root signed by the new root key only is refused', async (context) => {
  const { newRootKey, signed: root2 } = await secondRoot(context);
  await context.repo.root(root2, [newRootKey]);
  const error = await refused(updaterOf(context).refresh());
  assert.instance(error, UnsignedMetadataError);
  assert.is(error.message, 'root was signed by 0/1 keys');
});

test('a timestamp signed by a key root does not list is refused', async (context) => {
  const rogue = await createTufSigner(await generateSigningKey());
  await context.repo.timestamp(2, await metaEntryOf(new TextDecoder().decode(context.repo.files.get('1.snapshot.json'))), { signer: rogue });
  const error = await refused(updaterOf(context).refresh());
  assert.instance(error, UnsignedMetadataError);
  assert.is(error.message, 'timestamp was signed by 0/1 keys');
});

test('an expired timestamp is refused', async (context) => {
  const snapshot = await metaEntryOf(new TextDecoder().decode(context.repo.files.get('1.snapshot.json')));
  await context.repo.timestamp(2, snapshot, { expires: context.repo.now - 1000 });
  const error = await refused(updaterOf(context).refresh());
  assert.instance(error, ExpiredMetadataError);
  assert.is(error.message, 'Final timestamp.json is expired');
});

test('a rolled-back snapshot version is refused, and so is a snapshot rolling back the targets version', async (context) => {
  const targets1 = await metaEntryOf(new TextDecoder().decode(context.repo.files.get('1.targets.json')));
  const snapshot1 = await metaEntryOf(new TextDecoder().decode(context.repo.files.get('1.snapshot.json')));
  await context.repo.timestamp(2, await context.repo.snapshot(2, await context.repo.targets(2, context.targets)));
  await updaterOf(context).refresh();

  await context.repo.timestamp(3, snapshot1);
  const error = await refused(updaterOf(context).refresh());
  assert.instance(error, BadVersionError);
  assert.is(error.message, 'New snapshot version 1 is less than current version 2');

  await context.repo.timestamp(4, await context.repo.snapshot(3, targets1));
  const targetsError = await refused(updaterOf(context).refresh());
  assert.instance(targetsError, RuntimeError);
  // tuf-js wraps the BadVersionError in its message; its error classes keep the name "Error".
  assert.is(targetsError.message, 'Unable to load snapshot metadata error Error: New version 1 of targets.json is less than current version 2');
});

test.run();
