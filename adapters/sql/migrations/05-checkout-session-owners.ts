/**
 * Migration 5: checkout session owners.
 *
 * Checkout sessions keep who opened them (the keyed hash of the client key, as a vote does), so that a
 * client's open sessions can be counted (a cap per client, docs/deploy.md); older sessions have none.
 *
 * @module
 */
import type { Migration } from './migration.ts';

export const checkoutSessionOwners: Migration = {
  version: 5,
  name: 'checkout session owners',
  sql: `
alter table checkout_sessions add column owner text;
comment on column checkout_sessions.owner is 'base64url HMAC-SHA-256 of the client key under the voter-secret; never an address';
create index checkout_sessions_open_by_owner on checkout_sessions (owner, expires_at) where state = 'pending';
`,
};
