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

// prettier-ignore
const K = new Uint32Array([
  0x428a2f98,
  0x71374491,
  0xb5c0fbcf,
  0xe9b5dba5,
  0x3956c25b,
  0x59f111f1,
  0x923f82a4,
  0xab1c5ed5,
  0xd807aa98,
  0x12835b01,
  0x243185be,
  0x550c7dc3,
  0x72be5d74,
  0x80deb1fe,
  0x9bdc06a7,
  0xc19bf174,
  0xe49b69c1,
  0xefbe4786,
  0x0fc19dc6,
  0x240ca1cc,
  0x2de92c6f,
  0x4a7484aa,
  0x5cb0a9dc,
  0x76f988da,
  0x983e5152,
  0xa831c66d,
  0xb00327c8,
  0xbf597fc7,
  0xc6e00bf3,
  0xd5a79147,
  0x06ca6351,
  0x14292967,
  0x27b70a85,
  0x2e1b2138,
  0x4d2c6dfc,
  0x53380d13,
  0x650a7354,
  0x766a0abb,
  0x81c2c92e,
  0x92722c85,
  0xa2bfe8a1,
  0xa81a664b,
  0xc24b8b70,
  0xc76c51a3,
  0xd192e819,
  0xd6990624,
  0xf40e3585,
  0x106aa070,
  0x19a4c116,
  0x1e376c08,
  0x2748774c,
  0x34b0bcb5,
  0x391c0cb3,
  0x4ed8aa4a,
  0x5b9cca4f,
  0x682e6ff3,
  0x748f82ee,
  0x78a5636f,
  0x84c87814,
  0x8cc70208,
  0x90befffa,
  0xa4506ceb,
  0xbef9a3f7,
  0xc67178f2,
]);
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
