/**
 * HMAC-SHA-256, synchronous, for `createApp({ hmacSha256 })` and the SQL storages' rate-limit keys. Once
 * node:crypto's createHmac; now the plain one of core/clients/hmac-sha256.ts with each secret's pads
 * prepared once, which gives the same MACs several times faster for the short client keys hashed on the
 * request path (issue 31). Kept under its name for hosts that pass it.
 *
 * @module
 */
import { createHmacSha256 } from '../../core/clients/hmac-sha256.ts';
import type { SyncHmacSha256 } from '../../core/clients/keyed-hash.ts';

/** The prepared MACs of the few secrets in use (voter ids, rate-limit keys). */
const prepared = new Map<string, (message: string) => Uint8Array>();

function macOf(secret: string): (message: string) => Uint8Array {
  let mac = prepared.get(secret);
  if (mac === undefined) {
    if (prepared.size >= 8) prepared.clear();
    prepared.set(secret, (mac = createHmacSha256(secret)));
  }
  return mac;
}

/** HMAC-SHA-256 of `message` under `key` (both UTF-8). */
export const nodeHmacSha256: SyncHmacSha256 = (key, message) => macOf(key)(message);
