/**
 * node:crypto's HMAC-SHA-256, synchronous, for `createApp({ hmacSha256 })` and the SQL storages' rate-limit
 * keys. Deno and Bun provide node:crypto too.
 *
 * @module
 */
import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import type { SyncHmacSha256 } from '../../core/clients/keyed-hash.ts';

/** The key objects of the few secrets in use (voter ids, rate-limit keys): imported once, not per call. */
const keys = new Map<string, KeyObject>();

function keyOf(secret: string): KeyObject {
  let key = keys.get(secret);
  if (key === undefined) {
    if (keys.size >= 8) keys.clear();
    keys.set(secret, (key = createSecretKey(Buffer.from(secret, 'utf8'))));
  }
  return key;
}

/** HMAC-SHA-256 of `message` under `key` (both UTF-8). */
export const nodeHmacSha256: SyncHmacSha256 = (key, message) => createHmac('sha256', keyOf(key)).update(message).digest();
