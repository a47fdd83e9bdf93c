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
 * Creates a keyed hash.
 *
 * @param secret The server secret (any string of enough entropy).
 * @returns A function from subject to base64url MAC.
 */
export function createKeyedHash(secret: string): (subject: string) => string {
  const mac = createKeyedMac(secret);
  return (subject) => toBase64Url(mac(subject));
}

/** The same keyed hash as bytes (the MAC): the rollout bucket's SipHash key is taken from one (core/releases/rollout-rule.ts). */
export function createKeyedMac(secret: string): (subject: string) => Uint8Array {
  return createHmacSha256(secret);
}

/** A fresh random secret: 32 bytes, base64url. */
export function randomSecret(): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(32)));
}
