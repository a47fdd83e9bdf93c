/**
 * Writes docs/vectors/license-validate.json: answers of POST /api/v1/licenses/validate made by the server's
 * own code with a test-only key (valid, revoked after a refund, unknown) and tampered copies, for the desktop
 * app's tests (docs/licensing.md "Re-checking a key's standing"). Run with
 * `node --import tsx scripts/license-validate-vectors.ts`; test/core/license-validate-vectors.test.ts checks
 * that the file is what this code makes, and verifies each case with an independent verifier.
 *
 * @module
 */
import type { CoreResponse } from '../core/http/http.ts';
import { publicKeyOf } from '../core/licensing/license.ts';
import { createVectorApp, keptAnswer, VECTOR_KEY, writeVectors } from './vector-app.ts';

/** The nonce the app sent with one request (16 random bytes in base64url), and a later one's. */
const SENT_NONCE = 'q3Jx9VdJ0mYt1bR7cLw2Eg';
const FRESH_NONCE = 'Vf8nK2pQx0sL4aZ6dT1yHw';

export const LICENSE_VECTORS_PATH = new URL('../docs/vectors/license-validate.json', import.meta.url);

export interface LicenseVectorCase {
  name: string;
  /** Whether the app must accept the answer at `now` for `licenseKey`. */
  valid: boolean;
  why: string;
  /** The key the app sent, exactly: the answer's License-Key-Digest must be its SHA-256. */
  licenseKey: string;
  /** The nonce the app sent, when it sent one: the signature's nonce parameter must be exactly it. */
  nonce?: string;
  /** The time (seconds since the epoch) the app checks it at. */
  now: number;
  status: number;
  /** The answer's headers that matter to the check (lower-case names). */
  headers: Record<string, string>;
  body: string;
}

// With the update answer's installer headers (the example's baseline has them): every header a case's
// signature covers is in the case, so a case is refused for its own reason only.
const SIGNED = ['content-type', 'content-digest', 'license-key-digest', 'installer-digest', 'installer-size', 'signature-input', 'signature'];

const pick = (answer: CoreResponse) => keptAnswer(answer, SIGNED);

/** The vectors as this code makes them: keys bought and refunded through the payment simulator, at a fixed time. */
export async function makeLicenseVectors(): Promise<{ about: string; publicKey: string; leaseDays: number; cases: LicenseVectorCase[] }> {
  // The simulator's pages with fixed session ids and keys that are licenses (not simulator keys), so that
  // the keys, and so the file, are the same on every run.
  const ids = ['cs_sim_licenseVectorBundle0000000000000', 'cs_sim_licenseVectorRefunded00000000000'];
  const { app, now, advance } = await createVectorApp((simulator) => ({
    ...simulator,
    simulated: false,
    createCheckout: async () => ({ sessionId: ids.shift()!, url: 'https://api.example.com/checkout' }),
  }));
  const handle = (method: string, path: string, json?: unknown, query?: string) =>
    app.handle({
      method,
      path,
      clientIp: '203.0.113.7',
      headers: json === undefined ? {} : { 'content-type': 'application/json' },
      ...(json === undefined ? {} : { body: JSON.stringify(json) }),
      ...(query ? { query } : {}),
    });
  const buy = async (product: string) => {
    const { sessionId } = JSON.parse(pick(await handle('POST', '/api/v1/checkout/create', { product })).body) as { sessionId: string };
    await handle('POST', `/checkout/simulator/${sessionId}/pay`);
    const status = await handle('GET', '/api/v1/checkout/status', undefined, `session_id=${sessionId}`);
    return { sessionId, keys: JSON.parse(pick(status).body) as { standardLicenseKey: string; plusLicenseKey: string } };
  };
  const kept = await buy('plus_bundle');
  const refunded = await buy('standard');
  await handle('POST', `/checkout/simulator/${refunded.sessionId}/refund`);
  advance(1000);
  const validate = async (licenseKey: string, nonce?: string) => ({
    licenseKey,
    ...(nonce === undefined ? {} : { nonce }),
    ...pick(await handle('POST', '/api/v1/licenses/validate', nonce === undefined ? { licenseKey } : { licenseKey, nonce })),
  });
  const valid = await validate(kept.keys.plusLicenseKey);
  const revoked = await validate(refunded.keys.standardLicenseKey);
  const withNonce = await validate(kept.keys.plusLicenseKey, SENT_NONCE);
  const update = pick(await handle('GET', '/api/v1/version'));
  const unknown = await validate(
    '202GK-N4ZFF-SPXBH-S5Q94-Q6YRP-EX2MH-7RQ99-K6NHH-TM0W7-M04FT-NPEKP-20BCM-Z4DYN-BHB34-NA23S-HMYH6-VDF90-Z8TFG-9SVN6-ZDZQR-8BE0P-BYH9M-579CT-FN488',
  );
  const at = Math.floor(now() / 1000);
  const expires = Number(/;expires=(\d+)/.exec(valid.headers['signature-input']!)![1]);
  const lengthened = valid.body.replace(/"validUntil":"(\d{4})/, (_, year: string) => `"validUntil":"${Number(year) + 1}`);
  const cases: LicenseVectorCase[] = [
    { name: 'valid', valid: true, why: 'signature, Content-Digest, License-Key-Digest and expiry hold: run until validUntil', now: at, ...valid },
    { name: 'revoked', valid: true, why: 'a genuine answer: the order was refunded, so the app stops using the key', now: at, ...revoked },
    { name: 'unknown', valid: true, why: 'a genuine answer: no order of this server holds the key', now: at, ...unknown },
    {
      name: 'tampered body',
      valid: false,
      why: 'validUntil was moved a year on: the body no longer matches Content-Digest',
      now: at,
      ...valid,
      body: lengthened,
    },
    {
      name: 'answer about another key',
      valid: false,
      why: "a genuine valid answer for the bundle's plus key, replayed to an app holding the refunded key: License-Key-Digest is not its key's",
      now: at,
      ...valid,
      licenseKey: refunded.keys.standardLicenseKey,
    },
    {
      name: 'tampered key digest',
      valid: false,
      why: "License-Key-Digest was rewritten to the refunded key's: the signature no longer holds",
      now: at,
      ...valid,
      licenseKey: refunded.keys.standardLicenseKey,
      headers: { ...valid.headers, 'license-key-digest': revoked.headers['license-key-digest']! },
    },
    { name: 'expired', valid: false, why: 'checked after its expires parameter: an old answer replayed', now: expires + 1, ...valid },
    { name: 'valid, with a nonce', valid: true, why: 'the app sent a nonce: the signature carries it as its nonce parameter', now: at, ...withNonce },
    {
      name: 'saved answer, fresh nonce',
      valid: false,
      why: 'the genuine answer to an earlier request, replayed to an app that sent a fresh nonce: the signature carries another nonce',
      now: at,
      ...withNonce,
      nonce: FRESH_NONCE,
    },
    {
      name: 'answer without a nonce, nonce sent',
      valid: false,
      why: 'the genuine valid answer to a request without a nonce, replayed to an app that sent one: the signature carries none',
      now: at,
      ...valid,
      nonce: FRESH_NONCE,
    },
    {
      name: 'an update answer',
      valid: false,
      why: 'a genuine answer of GET /version: its tag is "update", never a license standing',
      now: at,
      licenseKey: valid.licenseKey,
      ...update,
    },
  ];
  return {
    about: 'Answers of POST /api/v1/licenses/validate (RFC 9421, ed25519; Content-Digest of RFC 9530; License-Key-Digest, the SHA-256 of the key sent) ' +
      "for the desktop app's tests: check each case at its `now` (seconds since the epoch) with `publicKey` (raw Ed25519, base64url) for its " +
      '`licenseKey`, as a license standing (tag "license-standing"), and for its `nonce` when it has one (the signature\'s nonce parameter ' +
      'must be exactly it). Made with a test-only key: never trust it outside tests. See docs/licensing.md.',
    publicKey: await publicKeyOf(VECTOR_KEY),
    leaseDays: 14,
    cases,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) writeVectors(LICENSE_VECTORS_PATH, await makeLicenseVectors());
