/**
 * Writes docs/vectors/update-signatures.json: signed update answers made by the server's own code with a
 * test-only key, and tampered copies, for the desktop app's tests (docs/updates.md). Run with
 * `node --import tsx scripts/signature-vectors.ts`; test/core/answer-signature.test.ts checks that the
 * file is what this code makes, and verifies each case with an independent verifier.
 *
 * @module
 */
import { publicKeyOf } from '../core/licensing/license.ts';
import { createVectorApp, keptAnswer, SIGNED_AT, VECTOR_KEY, writeVectors } from './vector-app.ts';

/** The test vector key of docs/licensing.md, which this server never issued: its standing is "unknown". */
const DOCS_TEST_KEY =
  '202GK-N4ZFF-SPXBH-S5Q94-Q6YRP-EX2MH-7RQ99-K6NHH-TM0W7-M04FT-NPEKP-20BCM-Z4DYN-BHB34-NA23S-HMYH6-VDF90-Z8TFG-9SVN6-ZDZQR-8BE0P-BYH9M-579CT-FN488';
export const VECTORS_PATH = new URL('../docs/vectors/update-signatures.json', import.meta.url);

export interface VectorCase {
  name: string;
  /** Whether the app must accept it at `now`. */
  valid: boolean;
  why: string;
  /** The time (seconds since the epoch) the app checks it at. */
  now: number;
  /** For a redirect to the MSI: the version GET /version offered the app, which the signed Release-Version must name. */
  offeredVersion?: string;
  status: number;
  /** The answer's headers that matter to the check (lower-case names). */
  headers: Record<string, string>;
  /** The body as text ("" for a redirect). */
  body: string;
}

const SIGNED = [
  'content-type',
  'content-digest',
  'location',
  'release-version',
  'license-key-digest',
  'installer-digest',
  'installer-size',
  'release-notes',
  'release-critical',
  'signature-input',
  'signature',
];

/** The vectors as this code makes them. */
export async function makeVectors(): Promise<{ about: string; publicKey: string; keyid: string; cases: VectorCase[] }> {
  const { app, storage, now, advance } = await createVectorApp();
  await storage.change(async (tx) => {
    await tx.releases.publishRelease({
      version: '2.6.2',
      msiUrl: 'https://downloads.example.com/LegacySheetConverter-2.6.2-x64.msi',
      notesUrl: 'https://www.example.com/releases/2.6.2',
      rolloutBasisPoints: 10000,
      publishedAt: SIGNED_AT - 60_000,
      sha256: 'd2a84f4b8b650937ec8f73cd8be2c74add5a911ba64df27458ed8229da804a26',
      size: 48_234_496,
      critical: true,
    });
  });
  advance(1000);
  const get = async (path: string, headers: Record<string, string> = {}) =>
    keptAnswer(await app.handle({ method: 'GET', path, headers, clientIp: '203.0.113.7' }), SIGNED);
  const check = await get('/api/v1/version');
  const download = await get('/api/v1/download', { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64)' });
  const warning = await get('/api/v1/download', { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64)' });
  const standing = keptAnswer(
    await app.handle({
      method: 'POST',
      path: '/api/v1/licenses/validate',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ licenseKey: DOCS_TEST_KEY }),
      clientIp: '203.0.113.7',
    }),
    SIGNED,
  );
  const at = Math.floor(now() / 1000);
  const expires = Number(/;expires=(\d+)/.exec(check.headers['signature-input']!)![1]);
  const cases: VectorCase[] = [
    { name: 'good update check', valid: true, why: 'signature, Content-Digest and expiry all hold', now: at, ...check },
    {
      name: 'good download redirect',
      valid: true,
      why: 'signature and expiry hold, and Release-Version is the version offered; the MSI must then match Installer-Digest and Installer-Size',
      now: at,
      offeredVersion: '2.6.2',
      ...download,
    },
    { name: 'good redirect to the Windows-only page', valid: true, why: 'signed over @status and Location only: no installer', now: at, ...warning },
    {
      name: 'tampered body',
      valid: false,
      why: 'the body no longer matches Content-Digest (the signature itself still holds)',
      now: at,
      ...check,
      body: check.body.replace('2.6.2-x64', '2.6.9-x64'),
    },
    {
      name: 'tampered digest',
      valid: false,
      why: 'Content-Digest and body were both changed: the signature no longer holds',
      now: at,
      ...check,
      body: check.body.replace('2.6.2-x64', '2.6.9-x64'),
      headers: { ...check.headers, 'content-digest': await digestHeader(check.body.replace('2.6.2-x64', '2.6.9-x64')) },
    },
    {
      name: 'tampered installer digest',
      valid: false,
      why: 'Installer-Digest was changed: the signature no longer holds',
      now: at,
      ...download,
      headers: { ...download.headers, 'installer-digest': 'sha-256=:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=:' },
    },
    { name: 'expired', valid: false, why: 'checked after its expires parameter', now: expires + 1, ...check },
    {
      name: 'older download redirect',
      valid: false,
      why: "a genuine redirect to 2.6.2's MSI, replayed to an app that GET /version told of 2.6.3: Release-Version is not the version offered",
      now: at,
      offeredVersion: '2.6.3',
      ...download,
    },
    {
      name: 'a license standing',
      valid: false,
      why: 'a genuine answer of POST /licenses/validate: its tag is "license-standing", never an update answer',
      now: at,
      ...standing,
    },
  ];
  return {
    about: "Signed update answers (RFC 9421, ed25519; Content-Digest of RFC 9530) for the desktop app's tests: check each case at its `now` " +
      '(seconds since the epoch) with `publicKey` (raw Ed25519, base64url), as an update answer (tag "update"); a redirect to the MSI ' +
      'with `offeredVersion`, the version GET /version offered, which its signed Release-Version must name. Made with a test-only key: ' +
      'never trust it outside tests. See docs/updates.md.',
    publicKey: await publicKeyOf(VECTOR_KEY),
    keyid: await publicKeyOf(VECTOR_KEY),
    cases,
  };
}

async function digestHeader(text: string): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return `sha-256=:${btoa(String.fromCharCode(...hash))}:`;
}

if (import.meta.url === `file://${process.argv[1]}`) writeVectors(VECTORS_PATH, await makeVectors());
