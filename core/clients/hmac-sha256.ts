/**
 * HMAC-SHA-256 (RFC 2104, FIPS 180-4) in plain TypeScript, keyed once: the key's inner and outer pad
 * blocks are compressed when the key is prepared, so a short message (a client key, under 56 bytes)
 * costs two compressions. node:crypto's createHmac builds a native object per call and cost 7-9 us a hash
 * on this machine (issue 31), more than everything else an update check does; this takes well under
 * 1 us, and is synchronous on every runtime. test/core/hmac-sha256.test.ts checks it against node:crypto
 * and the RFC 4231 vectors.
 *
 * @module
 */
import { utf8Bytes } from '../formats/utf8-bytes.ts';

/** The 64 round constants of FIPS 180-4 section 4.2.2, written as hex words: a string the formatter leaves as it is. */
const K = new Uint32Array(
  `
  428a2f98 71374491 b5c0fbcf e9b5dba5 3956c25b 59f111f1 923f82a4 ab1c5ed5
  d807aa98 12835b01 243185be 550c7dc3 72be5d74 80deb1fe 9bdc06a7 c19bf174
  e49b69c1 efbe4786 0fc19dc6 240ca1cc 2de92c6f 4a7484aa 5cb0a9dc 76f988da
  983e5152 a831c66d b00327c8 bf597fc7 c6e00bf3 d5a79147 06ca6351 14292967
  27b70a85 2e1b2138 4d2c6dfc 53380d13 650a7354 766a0abb 81c2c92e 92722c85
  a2bfe8a1 a81a664b c24b8b70 c76c51a3 d192e819 d6990624 f40e3585 106aa070
  19a4c116 1e376c08 2748774c 34b0bcb5 391c0cb3 4ed8aa4a 5b9cca4f 682e6ff3
  748f82ee 78a5636f 84c87814 8cc70208 90befffa a4506ceb bef9a3f7 c67178f2
  `.trim().split(/\s+/).map((word) => parseInt(word, 16)),
);
const IV = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);

/** The message schedule, shared: the functions below never yield. */
const W = new Uint32Array(64);

/** Compresses the 64-byte block of `bytes` at `offset` into `state`. */
function compress(state: Uint32Array, bytes: Uint8Array, offset: number): void {
  for (let i = 0; i < 16; i++) {
    const j = offset + i * 4;
    W[i] = (bytes[j]! << 24) | (bytes[j + 1]! << 16) | (bytes[j + 2]! << 8) | bytes[j + 3]!;
  }
  for (let i = 16; i < 64; i++) {
    const a = W[i - 15]!;
    const b = W[i - 2]!;
    const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
    const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
    W[i] = (W[i - 16]! + s0 + W[i - 7]! + s1) | 0;
  }
  let a = state[0]!, b = state[1]!, c = state[2]!, d = state[3]!, e = state[4]!, f = state[5]!, g = state[6]!, h = state[7]!;
  for (let i = 0; i < 64; i++) {
    const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (h + s1 + ((e & f) ^ (~e & g)) + K[i]! + W[i]!) | 0;
    const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (s0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  state[0] = (state[0]! + a) | 0;
  state[1] = (state[1]! + b) | 0;
  state[2] = (state[2]! + c) | 0;
  state[3] = (state[3]! + d) | 0;
  state[4] = (state[4]! + e) | 0;
  state[5] = (state[5]! + f) | 0;
  state[6] = (state[6]! + g) | 0;
  state[7] = (state[7]! + h) | 0;
}

/** Scratch space, shared like W: the state being finished and its last one or two blocks. */
const STATE = new Uint32Array(8);
const TAIL = new Uint8Array(128);

/**
 * Finishes a hash whose state `start` has absorbed `before` bytes: absorbs `length` bytes of `message`,
 * pads them (0x80, zeros, the bit length) and writes the 32-byte digest into `out` (which may be `message`).
 */
function finish(start: Uint32Array, before: number, message: Uint8Array, length: number, out: Uint8Array): void {
  STATE.set(start);
  const whole = length - (length % 64);
  for (let offset = 0; offset < whole; offset += 64) compress(STATE, message, offset);
  const rest = length - whole;
  const tailLength = rest < 56 ? 64 : 128;
  for (let i = 0; i < rest; i++) TAIL[i] = message[whole + i]!;
  TAIL[rest] = 0x80;
  TAIL.fill(0, rest + 1, tailLength - 8);
  const bits = (before + length) * 8;
  const high = Math.floor(bits / 0x1_0000_0000);
  const low = bits >>> 0;
  for (let i = 0; i < 4; i++) {
    TAIL[tailLength - 8 + i] = high >>> (24 - i * 8);
    TAIL[tailLength - 4 + i] = low >>> (24 - i * 8);
  }
  for (let offset = 0; offset < tailLength; offset += 64) compress(STATE, TAIL, offset);
  for (let i = 0; i < 8; i++) {
    const word = STATE[i]!;
    out[i * 4] = word >>> 24;
    out[i * 4 + 1] = word >>> 16;
    out[i * 4 + 2] = word >>> 8;
    out[i * 4 + 3] = word;
  }
}

/** SHA-256 of `bytes`. */
export function sha256(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(32);
  finish(IV, 0, bytes, bytes.length, out);
  return out;
}

const encoder = new TextEncoder();

/** The state after one pad block of the key (RFC 2104: the key, hashed first when longer than 64 bytes). */
function padded(key: Uint8Array, pad: number): Uint32Array {
  const block = new Uint8Array(64).fill(pad);
  for (let i = 0; i < key.length; i++) block[i] = key[i]! ^ pad;
  const state = IV.slice();
  compress(state, block, 0);
  return state;
}

/** HMAC-SHA-256 under one key, prepared once: the MAC of a UTF-8 string or of bytes, 32 bytes. */
export function createHmacSha256(key: string | Uint8Array): (message: string | Uint8Array) => Uint8Array {
  const raw = typeof key === 'string' ? encoder.encode(key) : key;
  const short = raw.length > 64 ? sha256(raw) : raw;
  const inner = padded(short, 0x36);
  const outer = padded(short, 0x5c);
  return (message) => {
    const [bytes, length] = typeof message === 'string' ? utf8Bytes(message) : [message, message.length];
    const mac = new Uint8Array(32);
    finish(inner, 64, bytes, length, mac);
    finish(outer, 64, mac, 32, mac);
    return mac;
  };
}
