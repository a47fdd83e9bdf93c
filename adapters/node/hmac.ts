/**
 * node:crypto's HMAC-SHA-256, synchronous, for `createApp({ hmacSha256 })`. Deno and Bun provide
 * node:crypto too.
 *
 * @module
 */
import { createHmac } from 'node:crypto';
import type { SyncHmacSha256 } from '../../core/voter-id.ts';

/** HMAC-SHA-256 of `message` under `key` (both UTF-8). */
export const nodeHmacSha256: SyncHmacSha256 = (key, message) => createHmac('sha256', key).update(message).digest();
