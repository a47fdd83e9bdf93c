/**
 * Writes the client-side test vectors of the conformance kit (docs/conformance.md#client-side-vectors):
 * docs/vectors/license-keys.json, every key issued by the server's own issuer (core/licensing/license.ts) with the public
 * test signing key of docs/licensing.md, or derived from such a key as the entry says.
 * test/conformance/vectors.test.ts fails when the file differs from what this script writes.
 *
 * The signed update answers (good, tampered, expired) are docs/vectors/update-signatures.json, written by
 * scripts/signature-vectors.ts.
 *
 * Usage: node --import tsx scripts/conformance-vectors.ts
 */
import { writeFileSync } from 'node:fs';
import { compactPayload, formatCompactKey, LICENSE_TAG } from '../core/licensing/license-compact.ts';
import { createLicenseIssuer, fromBase64Url, type LicensePayload, publicKeyOf, toBase64Url } from '../core/licensing/license.ts';

/** The public test signing key of docs/licensing.md ("Test vector"): never a production key. */
export const TEST_SIGNING_KEY = 'MC4CAQAwBQYDK2VwBCIEIECLN1QyWvcZMjVNRPUSldfFNhHLo/FpW/3GZWWg5A+Y';
/** Another key (PKCS#8 of the seed 32 x 0x2a), whose signatures the test public key must refuse. */
const OTHER_SIGNING_KEY = btoa(
  String.fromCharCode(...[0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20], ...new Array<number>(32).fill(0x2a)),
);

/** One key and what a client must make of it. */
export interface LicenseVector {
  id: string;
  description: string;
  key: string;
  /** Whether the app accepts it as a license (tag 0x10 or `key/`, signature valid). */
  valid: boolean;
  /** The claims of a valid key, as verifyLicenseKey returns them. */
  payload?: LicensePayload;
  /** A key the payment simulator signed: valid only for a development build that accepts simulator keys. */
  simulator?: true;
}

export interface LicenseVectors {
  description: string;
  format: string;
  publicKey: string;
  signingKey: string;
  vectors: LicenseVector[];
}

const SESSION = 'cs_test_a1B2c3D4e5F6g7H8';
const ISSUED_AT = 1_795_262_400_000;
const CLAIMS = { v: 2, product: 'plus', sku: 'plus_bundle', sidHash: '9f7bf36eae392d', issuedOn: '2026-11-21' } as const;

/** Flips one bit of the byte at `index` of a version-2 key and writes it again. */
function flipBit(key: string, index: number, compact: (bytes: Uint8Array) => string): string {
  const bytes = fromCrockford(key);
  bytes[index] = bytes[index]! ^ 0x01;
  return compact(bytes);
}

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
function fromCrockford(key: string): Uint8Array {
  const bits = [...key.replaceAll('-', '')].map((c) => ALPHABET.indexOf(c).toString(2).padStart(5, '0')).join('');
  return Uint8Array.from(bits.match(/.{8}/g)!, (byte) => parseInt(byte, 2));
}

/** A version-2 key over `payload` signed by `signingKey`. */
async function signCompact(signingKey: string, payload: Uint8Array<ArrayBuffer>): Promise<string> {
  const der = Uint8Array.from(atob(signingKey), (c) => c.charCodeAt(0));
  const key = await crypto.subtle.importKey('pkcs8', der, { name: 'Ed25519' }, false, ['sign']);
  return formatCompactKey(payload, new Uint8Array(await crypto.subtle.sign('Ed25519', key, payload)));
}

/** Builds the license-key vectors. */
export async function buildLicenseVectors(): Promise<LicenseVectors> {
  const v2 = await createLicenseIssuer(TEST_SIGNING_KEY, 'v2');
  const v1 = await createLicenseIssuer(TEST_SIGNING_KEY, 'v1');
  const purchase = { sessionId: SESSION, sku: 'plus_bundle', product: 'plus', issuedAt: ISSUED_AT, simulated: false } as const;
  const plus = await v2.issue(purchase);
  const standard = await v2.issue({ ...purchase, sku: 'standard', product: 'standard' });
  const addon = await v2.issue({ ...purchase, sku: 'plus_addon' });
  const simulator = await v2.issue({ ...purchase, simulated: true });
  const legacy = await v1.issue(purchase);
  const legacySimulator = await v1.issue({ ...purchase, simulated: true });
  const payload = await compactPayload(purchase);
  const compact = (bytes: Uint8Array) => formatCompactKey(bytes.subarray(0, 11), bytes.subarray(11));
  const legacyPayload = (key: string) => JSON.parse(new TextDecoder().decode(fromBase64Url(key.slice(4, key.lastIndexOf('.'))))) as LicensePayload;
  const dot = legacy.lastIndexOf('.');
  const vectors: LicenseVector[] = [
    { id: 'v2-plus-bundle', description: 'version 2, plus, sku plus_bundle, as issued', key: plus, valid: true, payload: CLAIMS },
    {
      id: 'v2-standard',
      description: 'version 2, standard, sku standard',
      key: standard,
      valid: true,
      payload: { ...CLAIMS, product: 'standard', sku: 'standard' },
    },
    { id: 'v2-plus-addon', description: 'version 2, plus, sku plus_addon', key: addon, valid: true, payload: { ...CLAIMS, sku: 'plus_addon' } },
    { id: 'v2-lower-case', description: 'v2-plus-bundle in lower case', key: plus.toLowerCase(), valid: true, payload: CLAIMS },
    { id: 'v2-no-dashes', description: 'v2-plus-bundle without its dashes', key: plus.replaceAll('-', ''), valid: true, payload: CLAIMS },
    {
      id: 'v2-spaces',
      description: 'v2-plus-bundle in groups of 10 with spaces, O for 0 and l for 1, as a person may type it',
      key: plus.replaceAll('-', '').replace(/.{10}/g, '$& ').trim().replaceAll('0', 'O').replaceAll('1', 'l'),
      valid: true,
      payload: CLAIMS,
    },
    { id: 'v2-padded', description: 'v2-plus-bundle with spaces and dashes around it', key: ` -${plus}- `, valid: true, payload: CLAIMS },
    {
      id: 'v2-flipped-payload-bit',
      description: 'v2-plus-bundle with the lowest bit of payload byte 5 (sidHash) flipped',
      key: flipBit(plus, 5, compact),
      valid: false,
    },
    {
      id: 'v2-flipped-signature-bit',
      description: 'v2-plus-bundle with the lowest bit of signature byte 0 flipped',
      key: flipBit(plus, 11, compact),
      valid: false,
    },
    {
      id: 'v2-changed-character',
      description: 'v2-plus-bundle with its 20th character changed (docs/licensing.md)',
      key: plus.slice(0, 19) + (plus[19] === '5' ? '6' : '5') + plus.slice(20),
      valid: false,
    },
    {
      id: 'v2-wrong-tag',
      description: 'tag 0x11 instead of 0x10, correctly signed: an unknown tag is not a key',
      key: await signCompact(TEST_SIGNING_KEY, Uint8Array.of(LICENSE_TAG + 1, ...payload.subarray(1))),
      valid: false,
    },
    {
      id: 'v2-unknown-sku',
      description: 'byte 1 = 0x07 (sku 3), correctly signed: an unknown sku is not a key',
      key: await signCompact(TEST_SIGNING_KEY, Uint8Array.of(payload[0]!, 0x07, ...payload.subarray(2))),
      valid: false,
    },
    { id: 'v2-other-signer', description: 'the v2-plus-bundle claims signed by another key', key: await signCompact(OTHER_SIGNING_KEY, payload), valid: false },
    {
      id: 'v2-simulator',
      description: "the payment simulator's key of the same purchase (tag 0xC8, starts with S)",
      key: simulator,
      valid: false,
      simulator: true,
    },
    { id: 'v2-truncated', description: 'v2-plus-bundle without its last group', key: plus.slice(0, -6), valid: false },
    {
      id: 'v2-invalid-character',
      description: 'v2-plus-bundle with a U (not in Crockford base32) in place of its last character',
      key: `${plus.slice(0, -1)}U`,
      valid: false,
    },
    { id: 'v1-plus-bundle', description: 'version 1 (key/...), plus, sku plus_bundle', key: legacy, valid: true, payload: legacyPayload(legacy) },
    { id: 'v1-simulator', description: 'version 1 key of the payment simulator (sim/...)', key: legacySimulator, valid: false, simulator: true },
    {
      id: 'v1-payload-changed',
      description: 'v1-plus-bundle with "plus" changed to "plut" in its payload',
      key: `key/${toBase64Url(new TextEncoder().encode(JSON.stringify(legacyPayload(legacy)).replace('"plus"', '"plut"')))}${legacy.slice(dot)}`,
      valid: false,
    },
    { id: 'v1-simulator-relabelled', description: 'v1-simulator with sim/ rewritten to key/', key: `key/${legacySimulator.slice(4)}`, valid: false },
    { id: 'v1-upper-case', description: 'v1-plus-bundle in upper case: version 1 keys are case-sensitive', key: legacy.toUpperCase(), valid: false },
  ];
  return {
    description:
      'License-key test vectors for clients of converter-site-api (docs/conformance.md#client-side-vectors). The signing key is public: never use it in production.',
    format: 'docs/licensing.md',
    publicKey: await publicKeyOf(TEST_SIGNING_KEY),
    signingKey: TEST_SIGNING_KEY,
    vectors,
  };
}

/** The file's text. */
export async function licenseVectorsFile(): Promise<string> {
  return `${JSON.stringify(await buildLicenseVectors(), null, 2)}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) writeFileSync(new URL('../docs/vectors/license-keys.json', import.meta.url), await licenseVectorsFile());
