/**
 * core/tuf/verify.ts: an envelope signed by a threshold of a role's keys, and a new root checked as a TUF
 * 1.0 client walks to it: each refusal with its sentence, a good first root and a good rotation, and the
 * same bytes read by tuf-js's Updater (in process, as test/core/tuf-stock-client.test.ts drives it):
 * the rotation signed by the old and new root keys is walked, one signed by the new key only is refused
 * by both.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UnsignedMetadataError } from '@tufjs/models/dist/error.js';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { generateSigningKey } from '../../core/licensing/license.ts';
import {
  buildRoot,
  buildSnapshot,
  buildTargets,
  buildTimestamp,
  checkNewRoot,
  createTufSigner,
  type Envelope,
  envelopeText,
  metaEntryOf,
  type RootSigned,
  signEnvelope,
  type TufSigner,
  verifyEnvelope,
} from '../../core/tuf/index.ts';
import { MapFetcher, tufJsClient } from '../_tuf-js.ts';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 0, 1);
const signer = async () => createTufSigner(await generateSigningKey());
const [oldRoot, newRoot, online, stranger] = await Promise.all([signer(), signer(), signer(), signer()]);

async function root(version: number, rootKeys: TufSigner[], options: { expires?: number; threshold?: number } = {}): Promise<RootSigned> {
  return buildRoot({
    version,
    expires: options.expires ?? NOW + 365 * DAY,
    rootKeys: rootKeys.map((k) => k.key),
    rootThreshold: options.threshold ?? 1,
    onlineKey: online.key,
  });
}

/** The envelope as the server is sent it: its JSON text parsed. */
const sent = async (signed: unknown, signers: TufSigner[]): Promise<unknown> => JSON.parse(envelopeText(await signEnvelope(signed, signers)));

const problemOf = async (candidate: unknown, previous: RootSigned | null = null): Promise<string> => {
  const checked = await checkNewRoot(candidate, previous, NOW);
  assert.ok(!checked.ok, 'accepted');
  return checked.problem;
};

test('verifyEnvelope counts distinct keyids of the role with valid signatures, each key under its own keyid', async () => {
  const signed = await root(1, [oldRoot, newRoot], { threshold: 2 });
  const both = await signEnvelope(signed, [oldRoot, newRoot]);
  assert.ok(await verifyEnvelope(both, signed.keys, signed.roles.root));
  const one = await signEnvelope(signed, [oldRoot]);
  assert.not.ok(await verifyEnvelope(one, signed.keys, signed.roles.root));
  assert.not.ok(await verifyEnvelope({ ...one, signatures: [...one.signatures, ...one.signatures] }, signed.keys, signed.roles.root), 'a keyid counts once');
  assert.ok(await verifyEnvelope(one, signed.keys, { ...signed.roles.root, threshold: 1 }));
  assert.not.ok(await verifyEnvelope(one, signed.keys, { ...signed.roles.root, threshold: 0 }));
  assert.not.ok(await verifyEnvelope(one, signed.keys, signed.roles.timestamp), 'a key of another role');
  const tampered = { ...one, signed: { ...signed, version: 2 } };
  assert.not.ok(await verifyEnvelope(tampered, signed.keys, { ...signed.roles.root, threshold: 1 }));
  // A key listed under another key's keyid does not count.
  const swapped = { ...signed.keys, [oldRoot.keyid]: newRoot.key };
  const byNew = await signEnvelope(signed, [newRoot]);
  const relabelled: Envelope<unknown> = { signed, signatures: [{ keyid: oldRoot.keyid, sig: byNew.signatures[0]!.sig }] };
  assert.not.ok(await verifyEnvelope(relabelled, swapped, { keyids: [oldRoot.keyid], threshold: 1 }));
  assert.not.ok(await verifyEnvelope({ signed, signatures: 'x' } as unknown as Envelope<unknown>, signed.keys, signed.roles.root));
});

test('a good first root and a good rotation are accepted', async () => {
  const first = await root(1, [oldRoot]);
  const checked = await checkNewRoot(await sent(first, [oldRoot]), null, NOW);
  assert.equal(checked, { ok: true, root: first });
  const second = await root(2, [newRoot]);
  assert.equal(await checkNewRoot(await sent(second, [oldRoot, newRoot]), first, NOW), { ok: true, root: second });
  // A threshold of two root keys, both signing.
  const third = await root(3, [newRoot, stranger], { threshold: 2 });
  assert.ok((await checkNewRoot(await sent(third, [newRoot, stranger]), second, NOW)).ok);
});

test('each refusal says what is wrong in one sentence', async () => {
  const first = await root(1, [oldRoot]);
  const good = (await sent(first, [oldRoot])) as { signed: Record<string, unknown>; signatures: unknown[] };
  const withSigned = async (change: (signed: Record<string, unknown>) => void, signers = [oldRoot]) => {
    const signed = structuredClone(good.signed);
    change(signed);
    return sent(signed, signers);
  };
  const cases: [unknown, string][] = [
    [[1], 'The root file must be a JSON object {"signed": {...}, "signatures": [...]}, as `converter-site-api updates sign-root` writes it.'],
    [
      { signed: good.signed },
      'The root file must be a JSON object {"signed": {...}, "signatures": [...]}, as `converter-site-api updates sign-root` writes it.',
    ],
    [
      { ...good, signed: { ...good.signed, extra: 1.5 } },
      'The root file cannot be written as canonical JSON (canonical JSON: the value.signed.extra is 1.5, not an integer (canonical JSON has no floats)).',
    ],
    [await withSigned((s) => (s['_type'] = 'targets')), 'signed._type is "targets", not "root": this is not a root file.'],
    [
      await withSigned((s) => (s['spec_version'] = '2.0.0')),
      'signed.spec_version is "2.0.0", not 1.x: TUF 1.0 clients read only spec_version 1; sign it with `converter-site-api updates sign-root`.',
    ],
    [
      await withSigned((s) => (s['consistent_snapshot'] = false)),
      'signed.consistent_snapshot must be true: the files are served as {version}.{role}.json; sign it with `converter-site-api updates sign-root`.',
    ],
    [await withSigned((s) => (s['version'] = 0)), 'signed.version is 0, not a whole number from 1.'],
    [await withSigned((s) => (s['keys'] = [])), 'signed.keys must be an object of keys by keyid.'],
    [
      await withSigned((s) => ((s['keys'] as Record<string, { keytype: string }>)[oldRoot.keyid]!.keytype = 'rsa')),
      `signed.keys["${
        oldRoot.keyid.slice(0, 16)
      }…"] is not an Ed25519 key: only {"keytype": "ed25519", "scheme": "ed25519", "keyval": {"public": <64 hex digits>}} is accepted.`,
    ],
    [
      await withSigned((s) => ((s['keys'] as Record<string, unknown>)[oldRoot.keyid] = stranger.key)),
      `signed.keys["${oldRoot.keyid.slice(0, 16)}…"] is listed under a keyid that is not its own (the SHA-256 of its canonical JSON).`,
    ],
    [
      await withSigned((s) => delete (s['roles'] as Record<string, unknown>)['snapshot']),
      'signed.roles must name exactly root, timestamp, snapshot and targets; missing snapshot.',
    ],
    [
      await withSigned((s) => ((s['roles'] as Record<string, unknown>)['mirrors'] = { keyids: [online.keyid], threshold: 1 })),
      'signed.roles must name exactly root, timestamp, snapshot and targets; extra mirrors.',
    ],
    [
      await withSigned((s) => ((s['roles'] as Record<string, { keyids: string[] }>)['targets']!.keyids = [])),
      'signed.roles.targets.keyids must be a non-empty list of keyids.',
    ],
    [
      await withSigned((s) => ((s['roles'] as Record<string, { keyids: string[] }>)['root']!.keyids = [oldRoot.keyid, oldRoot.keyid])),
      'signed.roles.root.keyids lists a keyid twice.',
    ],
    [
      await withSigned((s) => ((s['roles'] as Record<string, { threshold: number }>)['root']!.threshold = 2)),
      'signed.roles.root.threshold is 2, not a whole number from 1 to its 1 keyids.',
    ],
    [
      await withSigned((s) => ((s['roles'] as Record<string, { keyids: string[] }>)['timestamp']!.keyids = [stranger.keyid])),
      `signed.roles.timestamp names keyid ${stranger.keyid.slice(0, 16)}…, which signed.keys does not hold.`,
    ],
    [await withSigned((s) => (s['version'] = 2)), 'signed.version is 2, but the channel has no root yet: its first root is version 1.'],
    [await withSigned((s) => (s['expires'] = '2027-02-30T00:00:00Z')), 'signed.expires is "2027-02-30T00:00:00Z", not a time written YYYY-MM-DDTHH:MM:SSZ.'],
    [
      await withSigned((s) => (s['expires'] = '2027-01-01T00:00:00.000Z')),
      'signed.expires is "2027-01-01T00:00:00.000Z", not a time written YYYY-MM-DDTHH:MM:SSZ.',
    ],
    [
      await withSigned((s) => (s['expires'] = '2025-12-31T23:59:59Z')),
      'signed.expires 2025-12-31T23:59:59Z is past: sign the root again with a later --expires.',
    ],
    [await sent(first, [stranger]), 'The root is signed by 0 of the 1 root keys it names that must sign it: sign it with its own root key(s) (--key).'],
    [
      { ...good, signatures: [{ keyid: oldRoot.keyid, sig: '00'.repeat(64) }] },
      'The root is signed by 0 of the 1 root keys it names that must sign it: sign it with its own root key(s) (--key).',
    ],
  ];
  for (const [candidate, problem] of cases) assert.is(await problemOf(candidate), problem);
  const second = await root(2, [newRoot]);
  assert.is(
    await problemOf(await sent(second, [newRoot]), first),
    'The root is signed by 0 of the 1 keys of root version 1 that must sign it: a rotation is signed by the old root key(s) too (--previous-key).',
  );
  assert.is(
    await problemOf(await sent(await root(3, [newRoot]), [oldRoot, newRoot]), first),
    "signed.version is 3, but the channel's newest root is version 1: the next root must be version 2.",
  );
  assert.is(
    await problemOf(await sent(await root(1, [newRoot]), [oldRoot, newRoot]), first),
    "signed.version is 1, but the channel's newest root is version 1: the next root must be version 2.",
  );
});

/** tuf-js, trusting root 1, refreshes a channel whose newest root is `root2`; the root it trusts after, or the error. */
async function tufJsWalk(root1: string, root2: string): Promise<string | Error> {
  const files = new Map([['1.root.json', root1], ['2.root.json', root2]]);
  const now = Date.now();
  const targets = envelopeText(await signEnvelope(buildTargets({ version: 1, expires: now + 7 * DAY, targets: {} }), [online]));
  const snapshot = envelopeText(await signEnvelope(buildSnapshot({ version: 1, expires: now + 7 * DAY, targets: await metaEntryOf(targets) }), [online]));
  files.set('1.targets.json', targets).set('1.snapshot.json', snapshot);
  files.set(
    'timestamp.json',
    envelopeText(await signEnvelope(buildTimestamp({ version: 1, expires: now + DAY, snapshot: await metaEntryOf(snapshot) }), [online])),
  );
  const client = tufJsClient({ root: root1 }, new MapFetcher(files));
  try {
    const refused = await client.updater.refresh().then(() => null, (error: unknown) => error as Error);
    return refused ?? readFileSync(join(client.dir, 'metadata', 'root.json'), 'utf8');
  } finally {
    client.remove();
  }
}

test('tuf-js walks the rotation checkNewRoot accepts, and refuses the one it refuses', async () => {
  // tuf-js checks expiry against the real clock.
  const now = Date.now();
  const first = await root(1, [oldRoot], { expires: now + 365 * DAY });
  const root1 = envelopeText(await signEnvelope(first, [oldRoot]));
  const second = await root(2, [newRoot], { expires: now + 365 * DAY });
  const rotated = envelopeText(await signEnvelope(second, [oldRoot, newRoot]));
  assert.ok((await checkNewRoot(JSON.parse(rotated), first, now)).ok);
  assert.is(await tufJsWalk(root1, rotated), rotated);
  const newOnly = envelopeText(await signEnvelope(second, [newRoot]));
  assert.not.ok((await checkNewRoot(JSON.parse(newOnly), first, now)).ok);
  const refused = await tufJsWalk(root1, newOnly);
  assert.instance(refused, UnsignedMetadataError);
});

test.run();
