/**
 * Keyed hashes of client identities: HMAC-SHA-256 under a server secret, base64url, so that what is
 * stored (voter ids, rate-limit keys) never holds an address and cannot be linked back to one without
 * the secret.
 *
 * @module
 */
import { toBase64Url } from '../formats/base64url.ts';
import { andThen } from '../http/maybe.ts';
import type { MaybePromise } from '../ports/ports.ts';
import { createRecentCache } from './recent-cache.ts';

/** How many recent subjects' hashes each generation of the cache keeps, to spare the HMAC on repeated requests. */
const CACHE_SIZE = 10_000;

/**
 * HMAC-SHA-256 of `message` under `key`, computed synchronously: a runtime's native one (node:crypto's
 * createHmac, also on Deno and Bun) spares a new client the Web Crypto promise and its thread-pool round trip.
 */
export type SyncHmacSha256 = (key: string, message: string) => Uint8Array;

/**
 * Creates a keyed hash.
 *
 * @param secret The server secret (any string of enough entropy).
 * @param hmac A synchronous HMAC-SHA-256; Web Crypto (asynchronous) when absent. Both give the same hashes.
 * @returns A function from subject to base64url MAC, synchronous for a subject seen recently.
 */
export async function createKeyedHash(secret: string, hmac?: SyncHmacSha256): Promise<(subject: string) => MaybePromise<string>> {
  const sign = hmac ? (subject: string) => hmac(secret, subject) : await webCryptoHmac(secret);
  const recent = createRecentCache<string, string>(CACHE_SIZE);
  const store = (subject: string) => (mac: Uint8Array) => recent.set(subject, toBase64Url(mac));
  return (subject) => recent.get(subject) ?? andThen(sign(subject), store(subject));
}

/** Web Crypto's HMAC-SHA-256 under `secret`: asynchronous, but on every runtime. */
async function webCryptoHmac(secret: string): Promise<(message: string) => Promise<Uint8Array>> {
  const encoder = new TextEncoder();
  const usage: KeyUsage[] = ['sign'];
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, usage);
  return async (message) => new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(message)));
}

/** A fresh random secret: 32 bytes, base64url. */
export function randomSecret(): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(32)));
}
