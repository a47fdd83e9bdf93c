/**
 * Migration 4: hashed rate-limit keys.
 *
 * Rate-limit keys at rest become keyed hashes (HMAC-SHA-256 under the stored "rate-limit-secret"),
 * written by the code from this version on. The rows before it are keyed by the plain address or /64
 * prefix, and cannot be re-keyed in SQL (the secret and the HMAC live in the application), so they
 * are deleted: they are counters of windows at most a minute long, in an unlogged table that a
 * database crash empties anyway, and losing them gives each client a fresh window once.
 *
 * @module
 */
import type { Migration } from './migration.ts';

export const hashedRateLimitKeys: Migration = {
  version: 4,
  name: 'hashed rate-limit keys',
  sql: `
delete from rate_limits;
comment on column rate_limits.key is 'base64url HMAC-SHA-256 of the client key under the rate-limit-secret; never an address';
`,
};
