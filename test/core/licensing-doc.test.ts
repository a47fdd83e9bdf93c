/** Keeps the test vector of docs/licensing.md true: desktop developers check their code against it. */
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fromBase64Url, publicKeyOf, toBase64Url, verifyLicenseKey } from '../../core/license.ts';

const doc = readFileSync(new URL('../../docs/licensing.md', import.meta.url), 'utf8');

function field(pattern: RegExp): string {
  const value = pattern.exec(doc)?.[1];
  if (!value) throw new Error(`docs/licensing.md lacks ${pattern}`);
  return value;
}

const signingKey = field(/Test signing key \(LICENSE_SIGNING_KEY\): `([^`]+)`/);
const publicKey = field(/Its public key: `([^`]+)`/);
const licenseKey = field(/A valid plus key[^\n]*\n\s*`([^`]+)`/);

test('the documented public key is the documented signing key\'s, and the C# sample embeds it', async () => {
  assert.is(await publicKeyOf(signingKey), publicKey);
  assert.ok(doc.includes(`PublicKeyBase64Url = "${publicKey}"`));
});

test('the documented key verifies with the public key alone and says what the doc says', async () => {
  assert.equal(await verifyLicenseKey(licenseKey, publicKey), {
    v: 1,
    product: 'plus',
    sku: 'plus_bundle',
    sid: 'cs_test_a1B2c3D4e5F6g7H8',
    iat: 1795262400,
  });
});

test('the documented tampering (product "plut") and another public key are refused', async () => {
  const dot = licenseKey.lastIndexOf('.');
  const payload = new TextDecoder().decode(fromBase64Url(licenseKey.slice(4, dot)));
  const forged = `key/${toBase64Url(new TextEncoder().encode(payload.replace('"plus"', '"plut"')))}${licenseKey.slice(dot)}`;
  assert.is(await verifyLicenseKey(forged, publicKey), null);
  assert.is(await verifyLicenseKey(licenseKey, 'mA1HX4kmZXiJmoBRQqoZNPcgKGZqCtGw5V6wWKy-ZzQ'), null);
});

test.run();
