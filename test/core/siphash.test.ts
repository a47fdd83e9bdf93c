/**
 * SipHash-2-4 (core/clients/siphash.ts), checked against the authors' 64 vectors (veorq/SipHash
 * vectors.h: the key 00..0f, the message 00, 01, ... of each length from 0 to 63, each tag as its eight
 * bytes least significant first) and against a BigInt implementation written from the paper
 * (test/_siphash.ts), for random keys and messages.
 */
import * as fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createSipHash24, modulo } from '../../core/clients/siphash.ts';
import { MASK, referenceSipHash } from '../_siphash.ts';

// prettier-ignore
const VECTORS = [
  '310e0edd47db6f72',
  'fd67dc93c539f874',
  '5a4fa9d909806c0d',
  '2d7efbd796666785',
  'b7877127e09427cf',
  '8da699cd64557618',
  'cee3fe586e46c9cb',
  '37d1018bf50002ab',
  '6224939a79f5f593',
  'b0e4a90bdf82009e',
  'f3b9dd94c5bb5d7a',
  'a7ad6b22462fb3f4',
  'fbe50e86bc8f1e75',
  '903d84c02756ea14',
  'eef27a8e90ca23f7',
  'e545be4961ca29a1',
  'db9bc2577fcc2a3f',
  '9447be2cf5e99a69',
  '9cd38d96f0b3c14b',
  'bd6179a71dc96dbb',
  '98eea21af25cd6be',
  'c7673b2eb0cbf2d0',
  '883ea3e395675393',
  'c8ce5ccd8c030ca8',
  '94af49f6c650adb8',
  'eab8858ade92e1bc',
  'f315bb5bb835d817',
  'adcf6b0763612e2f',
  'a5c91da7acaa4dde',
  '716595876650a2a6',
  '28ef495c53a387ad',
  '42c341d8fa92d832',
  'ce7cf2722f512771',
  'e37859f94623f3a7',
  '381205bb1ab0e012',
  'ae97a10fd434e015',
  'b4a31508beff4d31',
  '81396229f0907902',
  '4d0cf49ee5d4dcca',
  '5c73336a76d8bf9a',
  'd0a704536ba93e0e',
  '925958fcd6420cad',
  'a915c29bc8067318',
  '952b79f3bc0aa6d4',
  'f21df2e41d4535f9',
  '87577519048f53a9',
  '10a56cf5dfcd9adb',
  'eb75095ccd986cd0',
  '51a9cb9ecba312e6',
  '96afadfc2ce666c7',
  '72fe52975a4364ee',
  '5a1645b276d592a1',
  'b274cb8ebf87870a',
  '6f9bb4203de7b381',
  'eaecb2a30b22a87f',
  '9924a43cc1315724',
  'bd838d3aafbf8db7',
  '0b1a2a3265d51aea',
  '135079a3231ce660',
  '932b2846e4d70666',
  'e1915f5cb1eca46c',
  'f325965ca16d629f',
  '575ff28e60381be5',
  '724506eb4c328a95',
];

const asBigInt = (out: { high: number; low: number }) => (BigInt(out.high) << 32n) | BigInt(out.low);
/** A tag of vectors.h (bytes least significant first) as a number. */
const tagOf = (hex: string) => BigInt('0x' + hex.match(/../g)!.reverse().join(''));

test("the authors' 64 vectors, by both implementations", () => {
  const key = Uint8Array.from({ length: 16 }, (_, i) => i);
  const hash = createSipHash24(key);
  VECTORS.forEach((hex, length) => {
    const message = Uint8Array.from({ length }, (_, i) => i);
    assert.is(asBigInt(hash(message)), tagOf(hex), `message of ${length} bytes`);
    assert.is(referenceSipHash(key, message), tagOf(hex), `reference, message of ${length} bytes`);
  });
});

test('random keys and messages (bytes, and strings as UTF-8) agree with the reference', () => {
  fc.assert(
    fc.property(
      fc.uint8Array({ minLength: 16, maxLength: 16 }),
      fc.uint8Array({ maxLength: 300 }),
      (key, message) => asBigInt(createSipHash24(key)(message)) === referenceSipHash(key, message),
    ),
    { numRuns: 1000 },
  );
  fc.assert(
    fc.property(
      fc.uint8Array({ minLength: 16, maxLength: 16 }),
      fc.string({ maxLength: 300, unit: 'binary' }),
      (key, text) => asBigInt(createSipHash24(key)(text)) === referenceSipHash(key, new TextEncoder().encode(text)),
    ),
    { numRuns: 1000 },
  );
});

test('a key of another length is refused', () => {
  assert.throws(() => createSipHash24(new Uint8Array(15)), /16 bytes, not 15/);
});

test('modulo reads the 64-bit value exactly', () => {
  fc.assert(
    fc.property(
      fc.bigInt({ min: 0n, max: MASK }),
      fc.integer({ min: 1, max: 1_000_000 }),
      (value, modulus) => modulo({ high: Number(value >> 32n), low: Number(value & 0xffffffffn) }, modulus) === Number(value % BigInt(modulus)),
    ),
    { numRuns: 2000 },
  );
  assert.is(modulo({ high: 0xffffffff, low: 0xffffffff }, 100), Number(MASK % 100n));
});

test.run();
