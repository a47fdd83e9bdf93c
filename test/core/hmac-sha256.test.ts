/**
 * The plain-TypeScript HMAC-SHA-256 (core/clients/hmac-sha256.ts) gives exactly what node:crypto gives, an
 * independent implementation: RFC 4231's vectors, then random keys and messages of every length around the
 * block and padding edges (0-200 bytes, multi-byte UTF-8 included).
 */
import { createHash, createHmac } from 'node:crypto';
import * as fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHmacSha256, sha256 } from '../../core/clients/hmac-sha256.ts';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const fromHex = (text: string) => new Uint8Array(Buffer.from(text, 'hex'));

test('RFC 4231 test cases 1, 2, 3, 4, 6 and 7 (HMAC-SHA-256)', () => {
  const cases: [Uint8Array, Uint8Array, string][] = [
    [fromHex('0b'.repeat(20)), new TextEncoder().encode('Hi There'), 'b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7'],
    [
      new TextEncoder().encode('Jefe'),
      new TextEncoder().encode('what do ya want for nothing?'),
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    ],
    [fromHex('aa'.repeat(20)), fromHex('dd'.repeat(50)), '773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe'],
    [
      fromHex('0102030405060708090a0b0c0d0e0f10111213141516171819'),
      fromHex('cd'.repeat(50)),
      '82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b',
    ],
    [
      fromHex('aa'.repeat(131)),
      new TextEncoder().encode('Test Using Larger Than Block-Size Key - Hash Key First'),
      '60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54',
    ],
    [
      fromHex('aa'.repeat(131)),
      new TextEncoder().encode(
        'This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.',
      ),
      '9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2',
    ],
  ];
  for (const [key, message, expected] of cases) assert.is(hex(createHmacSha256(key)(message)), expected);
});

test('SHA-256 of the empty message and of "abc" (FIPS 180-4 examples)', () => {
  assert.is(hex(sha256(new Uint8Array())), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  assert.is(hex(sha256(new TextEncoder().encode('abc'))), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
});

test('random keys and messages: the same MAC as node:crypto, with one prepared key used many times', () => {
  fc.assert(
    fc.property(
      fc.string({ unit: 'binary', maxLength: 120 }),
      fc.array(fc.string({ unit: 'binary', maxLength: 200 }), { minLength: 1, maxLength: 5 }),
      (key, messages) => {
        const mac = createHmacSha256(key);
        for (const message of messages) assert.is(hex(mac(message)), createHmac('sha256', key).update(message).digest('hex'));
      },
    ),
    { numRuns: 500 },
  );
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
      assert.is(hex(sha256(bytes)), createHash('sha256').update(bytes).digest('hex'));
    }),
    { numRuns: 500 },
  );
});

test.run();
