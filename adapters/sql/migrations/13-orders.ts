/**
 * Migration 13: orders.
 *
 * Orders (core/operator/orders.ts): what the provider says of a paid session's buyer and payment, when
 * it was fulfilled, and its standing (refund and dispute flags, the operator's revoke or reinstate).
 * Never read by the public API.
 *
 * @module
 */
import type { Migration } from './migration.ts';

export const orders: Migration = {
  version: 13,
  name: 'orders',
  sql: `
alter table checkout_sessions
  add column buyer_email text,
  add column buyer_name text,
  add column buyer_country text,
  add column payment_ref text,
  add column paid_at timestamptz,
  add column refunded boolean not null default false,
  add column disputed boolean not null default false,
  add column dispute_won boolean not null default false,
  add column override text check (override in ('revoked', 'reinstated')),
  add column override_reason text,
  add column override_at timestamptz;
-- Not partial: the planner cannot tell from lower(buyer_email) = lower($1) that buyer_email is not null.
create index checkout_sessions_buyer_email on checkout_sessions (lower(buyer_email));
create index checkout_sessions_payment_ref on checkout_sessions (payment_ref) where payment_ref is not null;
create index checkout_sessions_paid on checkout_sessions ((coalesce(paid_at, created_at)) desc) where state = 'paid';
`,
};
