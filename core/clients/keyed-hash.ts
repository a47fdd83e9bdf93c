/**
 * Keyed hashes of client identities: HMAC-SHA-256 under a server secret, base64url, so that what is
 * stored (voter ids, rate-limit keys) never holds an address and cannot be linked back to one without
 * the secret.
 *
 * @module
 */
import { toBase64Url } from '../formats/base64url.ts';
import { createHmacSha256 } from './hmac-sha256.ts';

/**
 * HMAC-SHA-256 of `message` under `key`, computed synchronously. A host may pass its own (the hashes are
 * the same); by default the plain one of hmac-sha256.ts, prepared once for the secret, is used on every
 * runtime: it is synchronous, and several times faster than node:crypto's createHmac for short messages.
 */
export type SyncHmacSha256 = (key: string, message: string) => Uint8Array;

/**
 * Creates a keyed hash.
 *
 * @param secret The server secret (any string of enough entropy).
 * @param hmac A synchronous HMAC-SHA-256; the plain one (core/clients/hmac-sha256.ts) when absent.
 * @returns A function from subject to base64url MAC.
 */
export function createKeyedHash(secret: string, hmac?: SyncHmacSha256): (subject: string) => string {
  const mac = createKeyedMac(secret, hmac);
  return (subject) => toBase64Url(mac(subject));
}

/** The same keyed hash as bytes (the MAC): the rollout bucket's SipHash key is taken from one (core/releases/rollout-bucket.ts). */
export function createKeyedMac(secret: string, hmac?: SyncHmacSha256): (subject: string) => Uint8Array {
  return hmac ? (subject: string) => hmac(secret, subject) : createHmacSha256(secret);
}

/** A fresh random secret: 32 bytes, base64url. */
export function randomSecret(): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(32)));
}
