/**
 * TUF keys and metadata: the keyid of a known key (RFC 8032's first test key), signatures checked with
 * node:crypto as well as with the code that makes them, and the exact form of root, snapshot, timestamp.
 */
import { createHash, createPublicKey, verify } from 'node:crypto';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { generateSigningKey } from '../../core/licensing/license.ts';
import { createTufSigner, keyIdOf, tufKeyOf, verifyTufSignature } from '../../core/tuf/keys.ts';
import {
  buildRoot,
  buildSnapshot,
  buildTargets,
  buildTimestamp,
  envelopeText,
  expiresMs,
  expiresText,
  metaEntryOf,
  signEnvelope,
} from '../../core/tuf/metadata.ts';
import { canonicalJson } from '../../core/tuf/canonical-json.ts';

const test = suite('TUF keys and metadata');

/** RFC 8032 section 7.1, test 1: the private key as base64 PKCS#8, its public key, and its signature of the empty message. */
const RFC8032_PKCS8 = 'MC4CAQAwBQYDK2VwBCIEIJ1hsZ3v/VpguoRK9JLsLMREScVpezJpGXA7rAMcrn9g';
const RFC8032_PUBLIC = 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a';
const RFC8032_EMPTY_SIG = 'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b';
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const DAY = 86_400_000;

/** node:crypto's verdict on a signature of a `signed` part, by an ed25519 key given in hex. */
function nodeVerifies(publicHex: string, text: string, sigHex: string): boolean {
  const spki = Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), Buffer.from(publicHex, 'hex')]);
  return verify(null, Buffer.from(text), createPublicKey({ key: spki, format: 'der', type: 'spki' }), Buffer.from(sigHex, 'hex'));
}

test('the keyid of a known key is the SHA-256 of its canonical JSON, and the signer signs as RFC 8032 says', async () => {
  const signer = await createTufSigner(RFC8032_PKCS8);
  assert.equal(signer.key, { keytype: 'ed25519', scheme: 'ed25519', keyval: { public: RFC8032_PUBLIC } });
  const text = `{"keytype":"ed25519","keyval":{"public":"${RFC8032_PUBLIC}"},"scheme":"ed25519"}`;
  assert.is(signer.keyid, createHash('sha256').update(text).digest('hex'));
  assert.is(signer.keyid, '74c181c7ad8a0855d4b55e44d2ba87aabdddb196832571f15f92fece332e4916');
  assert.is(await keyIdOf(tufKeyOf(Buffer.from(RFC8032_PUBLIC, 'hex'))), signer.keyid);
  assert.is(hex(await signer.sign(new Uint8Array())), RFC8032_EMPTY_SIG);
  assert.is(await verifyTufSignature(signer.key, new Uint8Array(), RFC8032_EMPTY_SIG), true);
  assert.is(await verifyTufSignature(signer.key, new Uint8Array([0]), RFC8032_EMPTY_SIG), false);
  assert.is(await verifyTufSignature(signer.key, new Uint8Array(), 'zz'), false);
});

test('expires is YYYY-MM-DDTHH:MM:SSZ with the milliseconds dropped, and read back', () => {
  assert.is(expiresText(Date.UTC(2030, 0, 2, 3, 4, 5, 999)), '2030-01-02T03:04:05Z');
  assert.is(expiresMs('2030-01-02T03:04:05Z'), Date.UTC(2030, 0, 2, 3, 4, 5));
  assert.throws(() => expiresMs('2030-01-02T03:04:05.000Z'), /is not YYYY-MM-DDTHH:MM:SSZ/);
  assert.throws(() => expiresText(Date.UTC(10000, 0, 1)), /not a time of years 1970-9999/);
});

test('a signed root has the exact TUF 1.0 form, verifies with node:crypto, and a changed byte does not', async () => {
  const root = await createTufSigner(RFC8032_PKCS8);
  const online = await createTufSigner(await generateSigningKey());
  const signed = await buildRoot({ version: 1, expires: Date.UTC(2031, 5, 1), rootKeys: [root.key], rootThreshold: 1, onlineKey: online.key });
  const onlineRole = { keyids: [online.keyid], threshold: 1 };
  assert.equal(signed, {
    _type: 'root',
    spec_version: '1.0.31',
    version: 1,
    expires: '2031-06-01T00:00:00Z',
    consistent_snapshot: true,
    keys: { [root.keyid]: root.key, [online.keyid]: online.key },
    roles: { root: { keyids: [root.keyid], threshold: 1 }, timestamp: onlineRole, snapshot: onlineRole, targets: onlineRole },
  });
  const envelope = await signEnvelope(signed, [root, root]);
  assert.is(envelope.signatures.length, 1);
  const { keyid, sig } = envelope.signatures[0]!;
  assert.is(keyid, root.keyid);
  const signedText = canonicalJson(signed);
  assert.is(nodeVerifies(RFC8032_PUBLIC, signedText, sig), true);
  assert.is(await verifyTufSignature(root.key, new TextEncoder().encode(signedText), sig), true);
  const changed = signedText.replace('"version":1', '"version":2');
  assert.is(nodeVerifies(RFC8032_PUBLIC, changed, sig), false);
  assert.is(await verifyTufSignature(root.key, new TextEncoder().encode(changed), sig), false);
  assert.is(envelopeText(envelope), `{"signatures":[{"keyid":"${root.keyid}","sig":"${sig}"}],"signed":${signedText}}`);
});

test('root refuses an online key that is a root key and a threshold beyond its keys', async () => {
  const a = await createTufSigner(RFC8032_PKCS8);
  const b = await createTufSigner(await generateSigningKey());
  await buildRoot({ version: 1, expires: 0, rootKeys: [a.key], rootThreshold: 1, onlineKey: a.key }).then(
    () => assert.unreachable('accepted'),
    (error: Error) => assert.is(error.message, 'root: the online key must not be a root key'),
  );
  await buildRoot({ version: 1, expires: 0, rootKeys: [a.key, a.key], rootThreshold: 2, onlineKey: b.key }).then(
    () => assert.unreachable('accepted'),
    (error: Error) => assert.is(error.message, 'root: threshold 2 is not 1 to the 1 distinct root keys'),
  );
});

test('snapshot and timestamp list the file they name by version, UTF-8 length and SHA-256', async () => {
  const online = await createTufSigner(RFC8032_PKCS8);
  const targets = buildTargets({
    version: 3,
    expires: Date.UTC(2030, 0, 1),
    targets: { 'a.msi': { length: 1, hashes: { sha256: 'ab'.repeat(32) }, custom: { s: 'ü' } } },
  });
  const targetsText = envelopeText(await signEnvelope(targets, [online]));
  const entry = await metaEntryOf(targetsText);
  const bytes = Buffer.from(targetsText, 'utf8');
  assert.equal(entry, { version: 3, length: bytes.length, hashes: { sha256: createHash('sha256').update(bytes).digest('hex') } });
  assert.is(entry.length, targetsText.length + 1);
  const snapshot = buildSnapshot({ version: 4, expires: Date.UTC(2030, 0, 1), targets: entry });
  assert.equal(snapshot, { _type: 'snapshot', spec_version: '1.0.31', version: 4, expires: '2030-01-01T00:00:00Z', meta: { 'targets.json': entry } });
  const timestamp = buildTimestamp({
    version: 5,
    expires: Date.UTC(2030, 0, 1) + DAY,
    snapshot: await metaEntryOf(envelopeText(await signEnvelope(snapshot, [online]))),
  });
  assert.is(timestamp.meta['snapshot.json'].version, 4);
  assert.is(timestamp.expires, '2030-01-02T00:00:00Z');
  assert.throws(() => buildTimestamp({ version: 0, expires: 0, snapshot: entry }), /metadata version 0 is not a whole number from 1/);
});

test.run();
