/**
 * An update check works out its client's bucket from the MAC's bytes (rolloutBucketOfMac); the rule is
 * written for its base64url text (rolloutBucket, docs/releases.md). Both must give every client the same
 * bucket, or a staged release would reach other clients than the numbers and the halt rule count.
 */
import * as fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { toBase64Url } from '../../core/formats/base64url.ts';
import { rolloutBucket, rolloutBucketOfMac } from '../../core/releases/release-view.ts';

test('the bucket of a MAC is the bucket of its base64url text', () => {
  fc.assert(fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (mac) => rolloutBucketOfMac(mac) === rolloutBucket(toBase64Url(mac))), { numRuns: 2000 });
  assert.is(rolloutBucketOfMac(new Uint8Array(32).fill(255)), 0xffffff % 100);
  assert.is(rolloutBucketOfMac(new Uint8Array(32)), 0);
});

test.run();
