/**
 * The simulation's randomness, from a seed so that runs repeat: sfc32 (Chris Doty-Humphrey's small fast
 * counter generator) started from the SHA-256 of the seed text. Not for keys: for install ids and poll
 * offsets of simulated installs only.
 *
 * @module
 */
import { createHash } from 'node:crypto';

/** A generator of uint32s. */
export interface Prng {
  /** The next uint32. */
  next(): number;
  /** A whole number in [0, n), n at most 2^32. */
  below(n: number): number;
  /** `length` random bytes. */
  bytes(length: number): Uint8Array;
}

/** A generator seeded by a text (the same text, the same numbers). */
export function seededPrng(seed: string): Prng {
  const digest = createHash('sha256').update(`converter-site-api simulate\n${seed}`).digest();
  let a = digest.readUInt32BE(0), b = digest.readUInt32BE(4), c = digest.readUInt32BE(8), d = digest.readUInt32BE(12);
  const next = () => {
    a >>>= 0, b >>>= 0, c >>>= 0, d >>>= 0;
    const t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    const out = (t + d) | 0;
    c = (c + out) | 0;
    return out >>> 0;
  };
  for (let i = 0; i < 16; i++) next();
  return {
    next,
    below: (n) => Math.floor((next() / 4294967296) * n),
    bytes(length) {
      const out = new Uint8Array(length);
      for (let i = 0; i < length; i += 4) {
        const word = next();
        for (let j = 0; j < 4 && i + j < length; j++) out[i + j] = (word >>> (8 * j)) & 0xff;
      }
      return out;
    },
  };
}
