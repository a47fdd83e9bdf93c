/**
 * Signed update answers, checked by an independent verifier: the signature base is rebuilt here from the
 * rules of RFC 9421 (section 2.5) and the answer's own headers, and verified with node:crypto's Ed25519,
 * not with the code that signs. The shipped vectors are what the server makes, and each tampered one is
 * refused. A signature is made once per distinct answer and window, not per request.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { AnswerSigner } from '../../core/releases/answer-signature.ts';
import { createLicenseIssuer, generateSigningKey, publicKeyOf } from '../../core/licensing/license.ts';
import { makeVectors, type VectorCase, VECTORS_PATH } from '../../scripts/signature-vectors.ts';
import { bodyText, coreRequest, createTestApp } from '../_setup.ts';
import { parseSignatureInput, refusal } from '../_update-signature.ts';

const test = suite('signed update answers');
const WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64)';

const plain = (headers: Record<string, string | undefined>) =>
  Object.fromEntries(Object.entries(headers).filter((e): e is [string, string] => e[1] !== undefined));

test('GET /version and both redirects of GET /download verify independently, with the installer digest, size, notes and critical flag covered', async () => {
  const key = await generateSigningKey();
  const { app, storage, clock } = await createTestApp({ licenses: await createLicenseIssuer(key) });
  const publicKey = await publicKeyOf(key);
  const msi = Buffer.alloc(1000, 3);
  const sha256 = createHash('sha256').update(msi).digest('hex');
  await storage.change((tx) =>
    tx.releases.publishRelease({
      version: '2.6.0',
      msiUrl: 'https://downloads.example.com/2.6.0.msi',
      notesUrl: 'https://www.example.com/notes/2.6.0',
      rolloutBasisPoints: 10000,
      publishedAt: clock.now(),
      sha256,
      size: 1000,
      critical: true,
    })
  );
  clock.advance(1000);
  const now = Math.floor(clock.now() / 1000);
  const check = await app.handle(coreRequest({ path: '/api/v1/version' }));
  const answer = { status: check.status, headers: plain(check.headers), body: bodyText(check) };
  assert.is(refusal(answer, publicKey, now), null);
  assert.is(answer.body, '{"version":"2.6.0","downloadUrl":"https://downloads.example.com/2.6.0.msi"}', "the body is the spec's, unchanged");
  assert.is(answer.headers['installer-digest'], `sha-256=:${createHash('sha256').update(msi).digest('base64')}:`);
  assert.equal([answer.headers['installer-size'], answer.headers['release-notes'], answer.headers['release-critical']], [
    '1000',
    'https://www.example.com/notes/2.6.0',
    '?1',
  ]);
  assert.equal(parseSignatureInput(answer.headers['signature-input']!)!.components, [
    '@status',
    'content-digest',
    'installer-digest',
    'installer-size',
    'release-notes',
    'release-critical',
  ]);
  for (const agent of [WINDOWS, 'Mozilla/5.0 (X11; Linux x86_64)']) {
    const redirect = await app.handle(coreRequest({ path: '/api/v1/download', headers: { 'user-agent': agent } }));
    assert.is(redirect.status, 302);
    assert.is(refusal({ status: 302, headers: plain(redirect.headers), body: '' }, publicKey, now), null, agent);
  }
  // The redirect to the MSI names its release's version, signed: it verifies for an app offered 2.6.0 and no other.
  const toMsi = await app.handle(coreRequest({ path: '/api/v1/download', headers: { 'user-agent': WINDOWS } }));
  const redirect = { status: 302, headers: plain(toMsi.headers), body: '' };
  assert.equal([redirect.headers['location'], redirect.headers['release-version']], ['https://downloads.example.com/2.6.0.msi', '2.6.0']);
  assert.equal(parseSignatureInput(redirect.headers['signature-input']!)!.components, [
    '@status',
    'location',
    'release-version',
    'installer-digest',
    'installer-size',
    'release-notes',
    'release-critical',
  ]);
  assert.is(refusal(redirect, publicKey, now, { tag: 'update', version: '2.6.0' }), null);
  assert.is(refusal(redirect, publicKey, now, { tag: 'update', version: '2.6.1' }), 'another version');
  assert.is(
    refusal({ ...redirect, headers: { ...redirect.headers, 'release-version': '2.6.1' } }, publicKey, now, { tag: 'update', version: '2.6.1' }),
    'the signature does not hold',
  );
  // Both answers say they are update answers, and a check for another meaning refuses them.
  for (const signed of [answer, redirect]) {
    assert.is(parseSignatureInput(signed.headers['signature-input']!)!.params['tag'], 'update');
    assert.is(refusal(signed, publicKey, now, { tag: 'license-standing' }), 'another tag');
  }
  // Each signed header is as /openapi.json documents it.
  const doc = JSON.parse(bodyText(await app.handle(coreRequest({ path: '/openapi.json' })))) as {
    components: { headers: Record<string, { schema: { pattern?: string } }> };
  };
  for (const name of ['Content-Digest', 'Signature-Input', 'Signature', 'Installer-Digest', 'Installer-Size']) {
    assert.match(answer.headers[name.toLowerCase()]!, new RegExp(doc.components.headers[name]!.schema.pattern!), name);
  }
  for (const name of ['Signature-Input', 'Release-Version']) {
    assert.match(redirect.headers[name.toLowerCase()]!, new RegExp(doc.components.headers[name]!.schema.pattern!), name);
  }
  // Another key's app does not verify.
  assert.is(refusal(answer, await publicKeyOf(await generateSigningKey()), now), 'another algorithm or key');
});

test('one signature per distinct answer and window: 200 checks of two releases sign twice; the next window signs again', async () => {
  const issuer = await createLicenseIssuer(await generateSigningKey());
  let signed = 0;
  const counting: AnswerSigner = { keyId: issuer.signer!.keyId, sign: (data) => (signed++, issuer.signer!.sign(data)) };
  const { app, storage, clock } = await createTestApp({
    licenses: { issue: issuer.issue, signer: counting },
    rateLimit: { name: 't', limit: 1e6, windowSeconds: 60 },
  });
  await storage.change((tx) =>
    tx.releases.publishRelease({
      version: '2.5.0',
      msiUrl: 'https://downloads.example.com/2.5.0.msi',
      notesUrl: null,
      rolloutBasisPoints: 10000,
      publishedAt: clock.now(),
    })
  );
  await storage.change((tx) =>
    tx.releases.publishRelease({
      version: '2.6.0',
      msiUrl: 'https://downloads.example.com/2.6.0.msi',
      notesUrl: null,
      rolloutBasisPoints: 5000,
      publishedAt: clock.now(),
    })
  );
  clock.advance(1000);
  const signatures = new Set<string>();
  await Promise.all(
    Array.from({ length: 200 }, async (_, i) => {
      const answer = await app.handle(coreRequest({ path: '/api/v1/version', clientIp: `198.51.100.${i}` }));
      signatures.add(answer.headers['signature']!);
    }),
  );
  assert.is(signed, 2);
  assert.is(signatures.size, 2);
  clock.advance(60_000);
  await app.handle(coreRequest({ path: '/api/v1/version', clientIp: '198.51.100.1' }));
  assert.is(signed, 3);
});

test('an answer to a nonce is signed for its request and never kept: 1,100 nonces do not push the download redirect out of its window', async () => {
  const issuer = await createLicenseIssuer(await generateSigningKey());
  let signed = 0;
  const counting: AnswerSigner = { keyId: issuer.signer!.keyId, sign: (data) => (signed++, issuer.signer!.sign(data)) };
  const { app, clock } = await createTestApp({ licenses: { issue: issuer.issue, signer: counting }, rateLimit: { name: 't', limit: 1e6, windowSeconds: 60 } });
  clock.advance(1000);
  // GET /download asks for its signature on every request (GET /version keeps its own per answer).
  const check = async () => (await app.handle(coreRequest({ path: '/api/v1/download', headers: { 'user-agent': WINDOWS } }))).headers['signature'];
  const first = await check();
  const licenseKey =
    '202GK-N4ZFF-SPXBH-S5Q94-Q6YRP-EX2MH-7RQ99-K6NHH-TM0W7-M04FT-NPEKP-20BCM-Z4DYN-BHB34-NA23S-HMYH6-VDF90-Z8TFG-9SVN6-ZDZQR-8BE0P-BYH9M-579CT-FN488';
  for (let i = 0; i < 1100; i++) {
    const nonce = `nonce-${String(i).padStart(16, '0')}`;
    const answer = await app.handle(coreRequest({ method: 'POST', path: '/api/v1/licenses/validate', json: { licenseKey, nonce } }));
    assert.ok(answer.headers['signature-input']!.includes(`;nonce="${nonce}"`), nonce);
  }
  assert.is(signed, 1101);
  assert.is(await check(), first, 'the same signature, not signed again');
  assert.is(signed, 1101);
});

test('signAnswers: false sends no signature headers', async () => {
  const { app } = await createTestApp({ signAnswers: false });
  const answer = await app.handle(coreRequest({ path: '/api/v1/version' }));
  assert.equal([answer.headers['signature'], answer.headers['signature-input'], answer.headers['content-digest']], [undefined, undefined, undefined]);
});

test('the shipped vectors are what the server makes, and the independent check accepts the good ones and refuses each tampered one', async () => {
  const shipped = JSON.parse(readFileSync(VECTORS_PATH, 'utf8')) as { publicKey: string; cases: VectorCase[] };
  assert.equal(shipped, JSON.parse(JSON.stringify(await makeVectors())), 'run node --import tsx scripts/signature-vectors.ts');
  const check = (c: VectorCase) =>
    refusal(c, shipped.publicKey, c.now, c.offeredVersion === undefined ? { tag: 'update' } : { tag: 'update', version: c.offeredVersion });
  const verdicts = shipped.cases.map((c) => [c.name, check(c)]);
  assert.equal(verdicts, [
    ['good update check', null],
    ['good download redirect', null],
    ['good redirect to the Windows-only page', null],
    ['tampered body', 'the body does not match Content-Digest'],
    ['tampered digest', 'the signature does not hold'],
    ['tampered installer digest', 'the signature does not hold'],
    ['expired', 'expired'],
    ['older download redirect', 'another version'],
    ['a license standing', 'another tag'],
  ]);
  for (const c of shipped.cases) assert.is(check(c) === null, c.valid, c.name);
});

test.run();
