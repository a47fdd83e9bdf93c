/**
 * Migration 17: `budget_spent.client` is now the keyed hash that `rate_limits.key` holds (one stored secret
 * keys both shared tables, records.ts); the counts stored under the voter secret before count for nobody
 * once read under the new hash, so a client's count restarts on the day of the upgrade.
 *
 * @module
 */
import type { Migration } from './migration.ts';

export const budgetClientHash: Migration = {
  version: 17,
  name: 'budget client hash',
  sql: `
comment on column budget_spent.client is 'base64url HMAC-SHA-256 of the client key under the rate-limit-secret, as rate_limits.key, or empty for all clients; never an address';
`,
};
