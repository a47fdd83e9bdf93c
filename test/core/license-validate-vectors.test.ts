/**
 * docs/vectors/license-validate.json, the license standing vectors the desktop app tests its check with: the
 * file is what the server makes, and the independent verifier (test/_update-signature.ts, from the RFCs and
 * node:crypto) accepts each good case and refuses each tampered one for the reason it says.
 */
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { LICENSE_VECTORS_PATH, type LicenseVectorCase, makeLicenseVectors } from '../../scripts/license-validate-vectors.ts';
import { licenseRefusal } from '../_update-signature.ts';

test('the shipped vectors are what the server makes; the independent check accepts the good ones and refuses each tampered one', async () => {
  const shipped = JSON.parse(readFileSync(LICENSE_VECTORS_PATH, 'utf8')) as { publicKey: string; cases: LicenseVectorCase[] };
  assert.equal(shipped, JSON.parse(JSON.stringify(await makeLicenseVectors())), 'run node --import tsx scripts/license-validate-vectors.ts');
  const check = (c: LicenseVectorCase) => licenseRefusal(c, shipped.publicKey, c.now, c.licenseKey, c.nonce);
  const verdicts = shipped.cases.map((c) => [c.name, check(c)]);
  assert.equal(verdicts, [
    ['valid', null],
    ['revoked', null],
    ['unknown', null],
    ['tampered body', 'the body does not match Content-Digest'],
    ['answer about another key', 'an answer about another key'],
    ['tampered key digest', 'the signature does not hold'],
    ['expired', 'expired'],
    ['valid, with a nonce', null],
    ['saved answer, fresh nonce', 'another nonce'],
    ['answer without a nonce, nonce sent', 'another nonce'],
    ['an update answer', 'another tag'],
  ]);
  for (const c of shipped.cases) assert.is(check(c) === null, c.valid, c.name);
  const standings = shipped.cases.slice(0, 3).map((c) => JSON.parse(c.body) as unknown);
  assert.equal(standings, [
    { standing: 'valid', product: 'plus', validUntil: '2026-12-10T12:00:01Z' },
    { standing: 'revoked', product: null, validUntil: null },
    { standing: 'unknown', product: null, validUntil: null },
  ]);
});

test.run();
