/** Keeps the test vectors of docs/licensing.md true: desktop developers check their code against them. */
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createLicenseIssuer, fromBase64Url, publicKeyOf, SIMULATOR_KEY_PREFIX, toBase64Url, verifyLicenseKey } from '../../core/licensing/license.ts';

const doc = readFileSync(new URL('../../docs/licensing.md', import.meta.url), 'utf8');

function field(pattern: RegExp): string {
  const value = pattern.exec(doc)?.[1];
  if (!value) throw new Error(`docs/licensing.md lacks ${pattern}`);
  return value;
}

const signingKey = field(/Test signing key \(LICENSE_SIGNING_KEY\): `([^`]+)`/);
const publicKey = field(/Its public key: `([^`]+)`/);
const compactKey = field(/A valid plus key, version 2[^`]*`[^`]*`[^\n]*\n[^\n]*\n\s*`([^`]+)`/);
const typedKey = field(/as a person may type it[^\n]*\n\s*`([^`]+)`/);
const tamperedKey = field(/20th character changed[^\n]*\n[^\n]*\n\s*`([^`]+)`/);
const simulatorKey = field(/The simulator key of the same purchase[^\n]*\n\s*`([^`]+)`/);
const legacyKey = field(/A valid plus key, version 1[^\n]*\n\s*`([^`]+)`/);
const claims = { v: 2, product: 'plus', sku: 'plus_bundle', sidHash: '9f7bf36eae392d', issuedOn: '2026-11-21' };

test("the documented public key is the documented signing key's, and the C# sample embeds it", async () => {
  assert.is(await publicKeyOf(signingKey), publicKey);
  assert.ok(doc.includes(`PublicKeyBase64Url = "${publicKey}"`));
});

test('the documented version-2 key is what the server issues, and verifies as issued and as typed', async () => {
  const issuer = await createLicenseIssuer(signingKey);
  const purchase = { sessionId: 'cs_test_a1B2c3D4e5F6g7H8', sku: 'plus_bundle', product: 'plus', issuedAt: 1_795_262_400_000 } as const;
  assert.is(await issuer.issue({ ...purchase, simulated: false }), compactKey);
  assert.is(await issuer.issue({ ...purchase, simulated: true }), simulatorKey);
  assert.ok(doc.includes(`\n\`\`\`\n${compactKey}\n\`\`\``), 'the format example is the test vector');
  assert.equal(await verifyLicenseKey(compactKey, publicKey), claims);
  assert.equal(await verifyLicenseKey(typedKey, publicKey), claims);
});

test('the documented tampered key, the simulator key and another public key are refused', async () => {
  assert.is([...tamperedKey].filter((char, index) => char !== compactKey[index]).length, 1);
  assert.is(await verifyLicenseKey(tamperedKey, publicKey), null);
  assert.is(await verifyLicenseKey(simulatorKey, publicKey), null);
  assert.equal(await verifyLicenseKey(simulatorKey, publicKey, SIMULATOR_KEY_PREFIX), claims);
  assert.is(await verifyLicenseKey(compactKey, 'mA1HX4kmZXiJmoBRQqoZNPcgKGZqCtGw5V6wWKy-ZzQ'), null);
});

test('the documented version-1 key still verifies, and its documented tampering (product "plut") is refused', async () => {
  assert.equal(await verifyLicenseKey(legacyKey, publicKey), {
    v: 1,
    product: 'plus',
    sku: 'plus_bundle',
    sid: 'cs_test_a1B2c3D4e5F6g7H8',
    iat: 1795262400,
  });
  const dot = legacyKey.lastIndexOf('.');
  const payload = new TextDecoder().decode(fromBase64Url(legacyKey.slice(4, dot)));
  const forged = `key/${toBase64Url(new TextEncoder().encode(payload.replace('"plus"', '"plut"')))}${legacyKey.slice(dot)}`;
  assert.is(await verifyLicenseKey(forged, publicKey), null);
  assert.is(await verifyLicenseKey(legacyKey, 'mA1HX4kmZXiJmoBRQqoZNPcgKGZqCtGw5V6wWKy-ZzQ'), null);
});

test.run();
