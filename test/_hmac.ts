/**
 * node:crypto's HMAC-SHA-256, for tests that work out a client's voter id or rollout bucket the way the
 * server should: an implementation independent of the one the server runs (core/clients/hmac-sha256.ts).
 */
import { createHmac } from 'node:crypto';
import type { SyncHmacSha256 } from '../core/clients/keyed-hash.ts';

export const cryptoHmacSha256: SyncHmacSha256 = (key, message) => createHmac('sha256', key).update(message).digest();
