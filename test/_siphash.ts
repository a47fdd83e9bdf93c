/**
 * SipHash-2-4 as the paper writes it, on BigInts, and the rollout bucket worked out with it and with
 * node:crypto's HMAC: implementations independent of the ones the server runs (core/clients/siphash.ts,
 * core/releases/rollout-rule.ts), for the tests that predict which clients a staged release reaches.
 */
import { createHmac } from 'node:crypto';

export const MASK = (1n << 64n) - 1n;
const rotl = (x: bigint, b: bigint) => ((x << b) | (x >> (64n - b))) & MASK;

/** SipHash-2-4 as the paper writes it, on BigInts: slow and plain, the independent answer. */
export function referenceSipHash(key: Uint8Array, message: Uint8Array): bigint {
  const le = (bytes: Uint8Array, at: number, count: number) => {
    let value = 0n;
    for (let i = count - 1; i >= 0; i--) value = (value << 8n) | BigInt(bytes[at + i]!);
    return value;
  };
  const k0 = le(key, 0, 8);
  const k1 = le(key, 8, 8);
  const v = [k0 ^ 0x736f6d6570736575n, k1 ^ 0x646f72616e646f6dn, k0 ^ 0x6c7967656e657261n, k1 ^ 0x7465646279746573n];
  const round = () => {
    v[0] = (v[0]! + v[1]!) & MASK;
    v[1] = rotl(v[1]!, 13n) ^ v[0];
    v[0] = rotl(v[0], 32n);
    v[2] = (v[2]! + v[3]!) & MASK;
    v[3] = rotl(v[3]!, 16n) ^ v[2];
    v[0] = (v[0] + v[3]) & MASK;
    v[3] = rotl(v[3], 21n) ^ v[0];
    v[2] = (v[2] + v[1]) & MASK;
    v[1] = rotl(v[1], 17n) ^ v[2];
    v[2] = rotl(v[2], 32n);
  };
  const words: bigint[] = [];
  for (let at = 0; at + 8 <= message.length; at += 8) words.push(le(message, at, 8));
  const rest = message.length % 8;
  words.push((BigInt(message.length & 0xff) << 56n) | le(message, message.length - rest, rest));
  for (const m of words) {
    v[3] = v[3]! ^ m;
    round();
    round();
    v[0] = v[0]! ^ m;
  }
  v[2] = v[2]! ^ 0xffn;
  for (let i = 0; i < 4; i++) round();
  return v[0]! ^ v[1]! ^ v[2]! ^ v[3]!;
}

/**
 * The rollout bucket of docs/releases.md rule 2, under a voter secret: SipHash-2-4 of the client key, keyed
 * by the first 16 bytes of HMAC-SHA-256(secret, the label below), modulo 100. The label is written out
 * here, not imported: changing it moves every client to another bucket, and must fail these tests.
 */
export function referenceBucketOf(secret: string): (clientKey: string) => number {
  const key = createHmac('sha256', secret).update('converter-site-api rollout bucket key (SipHash-2-4)').digest().subarray(0, 16);
  return (clientKey) => Number(referenceSipHash(key, new TextEncoder().encode(clientKey)) % 100n);
}
