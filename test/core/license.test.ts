/** License keys: version 2 (short, typed by people) is issued; version 1 (`key/...`) keeps verifying. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fromCrockfordBase32, toCrockfordBase32 } from '../../core/licensing/crockford-base32.ts';
import { createLicenseIssuer, generateSigningKey, publicKeyOf, SIMULATOR_KEY_PREFIX, verifyLicenseKey } from '../../core/licensing/license.ts';
import { compactClaims, issueLegacyLicenseKey } from '../_licenses.ts';

const signingKey = await generateSigningKey();
const publicKey = await publicKeyOf(signingKey);
const issuer = await createLicenseIssuer(signingKey);
const issuedAt = Date.UTC(2026, 10, 21, 12, 0, 0);
const claims = { sessionId: 'cs_test_a1B2c3D4e5F6g7H8', sku: 'plus_bundle', product: 'plus', issuedAt, simulated: false } as const;
const { sidHash } = compactClaims('plus', 'plus_bundle', claims.sessionId, issuedAt);
const KEY_SHAPE = /^[0-9A-HJKMNP-TV-Z]{5}(-[0-9A-HJKMNP-TV-Z]{5}){23}$/;

/** The key with the character at `index` (dashes not counted) replaced by another base32 digit. */
function changeCharacter(key: string, index: number): string {
  const chars = key.replace(/-/g, '').split('');
  chars[index] = chars[index] === '0' ? '1' : '0';
  return chars.join('');
}

test('a new key is 120 base32 characters in 24 dash-separated groups and verifies with the public key alone', async () => {
  const key = await issuer.issue(claims);
  assert.match(key, KEY_SHAPE);
  assert.is(key.length, 143);
  assert.is(key[0], '2');
  assert.equal(await verifyLicenseKey(key, publicKey), { v: 2, product: 'plus', sku: 'plus_bundle', sidHash, issuedOn: '2026-11-21' });
  const standard = await issuer.issue({ ...claims, sku: 'standard', product: 'standard' });
  assert.equal(await verifyLicenseKey(standard, publicKey), { v: 2, product: 'standard', sku: 'standard', sidHash, issuedOn: '2026-11-21' });
  assert.is(await issuer.issue(claims), key, 'Ed25519 is deterministic: racing polls get identical keys');
});

test('a key typed in lower case, with dashes left out or added, spaces, O for 0 and I or L for 1 verifies', async () => {
  const key = await issuer.issue(claims);
  const expected = await verifyLicenseKey(key, publicKey);
  const bare = key.replace(/-/g, '');
  const typed = [
    key.toLowerCase(),
    bare,
    bare.toLowerCase(),
    ` ${bare.slice(0, 7)}--${bare.slice(7, 60)} ${bare.slice(60).replace(/(.{3})/g, '$1-')}\n`,
    key.replace(/0/g, 'O').replace(/1/g, 'l'),
    key.replace(/1/g, 'I').toLowerCase(),
  ];
  for (const text of typed) assert.equal(await verifyLicenseKey(text, publicKey), expected, text);
});

test('a key with any one character changed, cut short or lengthened is refused', async () => {
  const key = await issuer.issue(claims);
  const bare = key.replace(/-/g, '');
  for (let index = 0; index < bare.length; index++) {
    assert.is(await verifyLicenseKey(changeCharacter(key, index), publicKey), null, `character ${index}`);
  }
  assert.is(await verifyLicenseKey(bare.slice(0, -1), publicKey), null);
  assert.is(await verifyLicenseKey(`${bare}0`, publicKey), null);
  assert.is(await verifyLicenseKey(bare.replace(/^(.{10})./, '$1U'), publicKey), null, 'U is not a digit');
  assert.is(await verifyLicenseKey(key, await publicKeyOf(await generateSigningKey())), null);
});

test('a simulator key starts with S and never verifies as a license, not even with its tag rewritten', async () => {
  const key = await issuer.issue({ ...claims, simulated: true });
  assert.match(key, KEY_SHAPE);
  assert.is(key[0], 'S');
  assert.is(await verifyLicenseKey(key, publicKey), null);
  assert.equal(await verifyLicenseKey(key, publicKey, SIMULATOR_KEY_PREFIX), { v: 2, product: 'plus', sku: 'plus_bundle', sidHash, issuedOn: '2026-11-21' });
  const bytes = fromCrockfordBase32(key)!;
  bytes[0] = 0x10;
  assert.is(await verifyLicenseKey(toCrockfordBase32(bytes), publicKey), null);
  const license = await issuer.issue(claims);
  assert.is(await verifyLicenseKey(license, publicKey, SIMULATOR_KEY_PREFIX), null, 'nor a license as a simulator key');
});

test('version-1 keys (key/...) keep verifying; version-1 simulator keys (sim/...) still never do', async () => {
  const legacy = await issueLegacyLicenseKey(signingKey, claims);
  assert.match(legacy, /^key\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{86}$/);
  const payload = { v: 1, product: 'plus', sku: 'plus_bundle', sid: claims.sessionId, iat: issuedAt / 1000 };
  assert.equal(await verifyLicenseKey(legacy, publicKey), payload);
  assert.equal(await verifyLicenseKey(` ${legacy}\n`, publicKey), payload);
  assert.is(await verifyLicenseKey(legacy.toLowerCase(), publicKey), null);
  const simulated = await issueLegacyLicenseKey(signingKey, { ...claims, simulated: true });
  assert.is(await verifyLicenseKey(simulated, publicKey), null);
  assert.is(await verifyLicenseKey(`key/${simulated.slice(4)}`, publicKey), null);
  assert.equal(await verifyLicenseKey(simulated, publicKey, SIMULATOR_KEY_PREFIX), payload);
});

test('a key cannot be dated before 2020 or after 2199 (a wrong clock), rather than wrapping around', async () => {
  await issuer.issue({ ...claims, issuedAt: Date.UTC(2020, 0, 1) });
  await issuer.issue({ ...claims, issuedAt: Date.UTC(2199, 5, 1) });
  for (const at of [Date.UTC(2019, 11, 31), Date.UTC(2200, 0, 1)]) {
    try {
      await issuer.issue({ ...claims, issuedAt: at });
      assert.unreachable(`issued at ${at}`);
    } catch (error) {
      assert.instance(error, RangeError);
    }
  }
});

test.run();
