/**
 * SipHash-2-4 (Aumasson and Bernstein, 2012): a keyed hash made for short messages, here the rollout
 * bucket's hash of a client key. The 64-bit words are kept as pairs of 32-bit halves (JavaScript has no
 * fast 64-bit integers), so a client key costs eight rounds of additions, rotations and xors: about a
 * tenth of the two SHA-256 compressions an HMAC takes. test/core/siphash.test.ts checks it against the
 * authors' vectors and a BigInt implementation written from the paper.
 *
 * @module
 */
import { utf8Bytes } from '../formats/utf8-bytes.ts';

/** A little-endian 32-bit word of `bytes` at `at`. */
const word = (bytes: Uint8Array, at: number): number => (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0;

/** The output, as its high and low 32-bit halves (unsigned). */
export interface SipHashOutput {
  high: number;
  low: number;
}

/**
 * SipHash-2-4 under a 16-byte key, prepared once.
 *
 * @returns The 64-bit hash of a message (a string is hashed as its UTF-8 bytes), written into one output
 *   object that the next call overwrites: read it before hashing again.
 */
export function createSipHash24(key: Uint8Array): (message: string | Uint8Array) => SipHashOutput {
  if (key.length !== 16) throw new Error(`a SipHash key is 16 bytes, not ${key.length}`);
  const k0l = word(key, 0), k0h = word(key, 4), k1l = word(key, 8), k1h = word(key, 12);
  const out: SipHashOutput = { high: 0, low: 0 };
  return (message) => {
    const [bytes, length] = typeof message === 'string' ? utf8Bytes(message) : [message, message.length];
    // The state in locals (kept outside the function, its numbers would be boxed), each word as a high
    // and a low half; it starts as "somepseudorandomlygeneratedbytes" xored with the key.
    let v0h = (k0h ^ 0x736f6d65) >>> 0, v0l = (k0l ^ 0x70736575) >>> 0;
    let v1h = (k1h ^ 0x646f7261) >>> 0, v1l = (k1l ^ 0x6e646f6d) >>> 0;
    let v2h = (k0h ^ 0x6c796765) >>> 0, v2l = (k0l ^ 0x6e657261) >>> 0;
    let v3h = (k1h ^ 0x74656462) >>> 0, v3l = (k1l ^ 0x79746573) >>> 0;
    const whole = length - (length % 8);
    // Step by step: each whole word, then the last one (the remaining bytes with the length's low byte
    // on top), absorbed with two rounds each; then the finalization's four rounds.
    for (let at = 0;; at += 8) {
      let mh = 0, ml = 0, rounds = 2;
      if (at < whole) {
        ml = word(bytes, at);
        mh = word(bytes, at + 4);
      } else if (at === whole) {
        mh = (length & 0xff) << 24;
        for (let i = length - 1; i >= whole; i--) {
          const shift = (i - whole) * 8;
          if (shift < 32) ml |= bytes[i]! << shift;
          else mh |= bytes[i]! << (shift - 32);
        }
        mh >>>= 0;
        ml >>>= 0;
      } else {
        v2l = (v2l ^ 0xff) >>> 0;
        rounds = 4;
      }
      v3h = (v3h ^ mh) >>> 0;
      v3l = (v3l ^ ml) >>> 0;
      for (let round = 0; round < rounds; round++) {
        let lo: number, hi: number;
        // SipRound (the paper's figure 2.1). v0 += v1; v1 = rotl(v1, 13) ^ v0; v0 = rotl(v0, 32)
        lo = (v0l + v1l) >>> 0;
        v0h = (v0h + v1h + (lo < v0l ? 1 : 0)) >>> 0;
        v0l = lo;
        hi = (v1h << 13) | (v1l >>> 19);
        lo = (v1l << 13) | (v1h >>> 19);
        v1h = (hi ^ v0h) >>> 0;
        v1l = (lo ^ v0l) >>> 0;
        lo = v0l;
        v0l = v0h;
        v0h = lo;
        // v2 += v3; v3 = rotl(v3, 16) ^ v2
        lo = (v2l + v3l) >>> 0;
        v2h = (v2h + v3h + (lo < v2l ? 1 : 0)) >>> 0;
        v2l = lo;
        hi = (v3h << 16) | (v3l >>> 16);
        lo = (v3l << 16) | (v3h >>> 16);
        v3h = (hi ^ v2h) >>> 0;
        v3l = (lo ^ v2l) >>> 0;
        // v0 += v3; v3 = rotl(v3, 21) ^ v0
        lo = (v0l + v3l) >>> 0;
        v0h = (v0h + v3h + (lo < v0l ? 1 : 0)) >>> 0;
        v0l = lo;
        hi = (v3h << 21) | (v3l >>> 11);
        lo = (v3l << 21) | (v3h >>> 11);
        v3h = (hi ^ v0h) >>> 0;
        v3l = (lo ^ v0l) >>> 0;
        // v2 += v1; v1 = rotl(v1, 17) ^ v2; v2 = rotl(v2, 32)
        lo = (v2l + v1l) >>> 0;
        v2h = (v2h + v1h + (lo < v2l ? 1 : 0)) >>> 0;
        v2l = lo;
        hi = (v1h << 17) | (v1l >>> 15);
        lo = (v1l << 17) | (v1h >>> 15);
        v1h = (hi ^ v2h) >>> 0;
        v1l = (lo ^ v2l) >>> 0;
        lo = v2l;
        v2l = v2h;
        v2h = lo;
      }
      if (at > whole) break;
      v0h = (v0h ^ mh) >>> 0;
      v0l = (v0l ^ ml) >>> 0;
    }
    out.high = (v0h ^ v1h ^ v2h ^ v3h) >>> 0;
    out.low = (v0l ^ v1l ^ v2l ^ v3l) >>> 0;
    return out;
  };
}

/** A 64-bit value given as halves, modulo a small `modulus` (below 2^21), exactly. */
export function modulo(value: SipHashOutput, modulus: number): number {
  // high * 2^32 + low, reduced piecewise: every product stays below 2^53.
  return (((value.high % modulus) * (0x1_0000_0000 % modulus)) + (value.low % modulus)) % modulus;
}
