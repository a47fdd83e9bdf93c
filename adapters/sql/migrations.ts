/**
 * The versioned schema, shared by the Postgres and PGlite adapters. Migrations are append-only: a
 * released one is never edited, and none drops or rewrites a record (version 4 empties the rate-limit
 * counters, which are no records: see there).
 *
 * @module
 */

import { releaseRamps, usageKinds } from './migration-autopilot.ts';
import { feedbackByTime, orderAmounts, outbox, roadmapAdmin, usage, votesPerNetwork } from './migration-back-office.ts';
import { budgetClientHash, budgets, dropBudgetFunction } from './migration-budgets.ts';
import { batchedToggles, initial, setBasedToggles } from './migration-initial.ts';
import { licenseKeyLookup, outboundEventRetention, paymentEventsAnyOrder } from './migration-hardening.ts';
import { mailOutbox } from './migration-mail.ts';
import { auditActors } from './migration-audit-actors.ts';
import { vendorWeek } from './migration-vendor-week.ts';
import { distinctClients } from './migration-30-distinct-clients.ts';
import { resendRequests } from './migration-31-resend-requests.ts';
import { releaseAnnouncedStep } from './migration-32-release-announced-step.ts';

/** One step of the schema. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

const hashedRateLimitKeys = `
delete from rate_limits;
comment on column rate_limits.key is 'base64url HMAC-SHA-256 of the client key under the rate-limit-secret; never an address';
`;

/**
 * Checkout sessions keep who opened them (the keyed hash of the client key, as a vote does), so that a
 * client's open sessions can be counted (a cap per client, docs/deploy.md); older sessions have none.
 */
const checkoutOwners = `
alter table checkout_sessions add column owner text;
comment on column checkout_sessions.owner is 'base64url HMAC-SHA-256 of the client key under the voter-secret; never an address';
create index checkout_sessions_open_by_owner on checkout_sessions (owner, expires_at) where state = 'pending';
`;

/**
 * Desktop releases with staged rollout (core/releases/release-view.ts): what GET /version and GET /download serve,
 * changed while the service runs.
 */
const releases = `
create table releases (
  version text primary key,
  msi_url text not null,
  notes_url text,
  rollout_percent integer not null check (rollout_percent between 0 and 100),
  published_at timestamptz not null,
  pulled_at timestamptz
);
create index releases_by_time on releases (published_at desc);
`;

/** The operator's audit trail (core/operator): every change made through the operator API. */
const audit = `
create table audit (
  id bigint generated always as identity primary key,
  at timestamptz not null,
  action text not null,
  target text not null,
  request_id text not null
);
`;

/** The feedback inbox (core/operator/inbox.ts): when the operator marked an entry handled. */
const feedbackHandled = `
alter table feedback add column handled_at timestamptz;
`;

/**
 * Orders (core/operator/orders.ts): what the provider says of a paid session's buyer and payment, when
 * it was fulfilled, and its standing (refund and dispute flags, the operator's revoke or reinstate).
 * Never read by the public API.
 */
const orders = `
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
`;

/**
 * Migration 19 (issue 31): each release's installer digest and size (the update answers carry them in a
 * signed header) and whether it is critical. Releases stored before keep null: their answers say nothing
 * of the installer.
 */
const releaseIntegrity = `
alter table releases
  add column sha256 text check (sha256 ~ '^[0-9a-f]{64}$'),
  add column size bigint check (size >= 0),
  add column critical boolean not null default false;
`;

/** Every migration, in order. Append only. */
export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'initial', sql: initial },
  { version: 2, name: 'batched vote toggles', sql: batchedToggles },
  { version: 3, name: 'set-based vote toggles', sql: setBasedToggles },
  { version: 4, name: 'hashed rate-limit keys', sql: hashedRateLimitKeys },
  { version: 5, name: 'checkout session owners', sql: checkoutOwners },
  { version: 6, name: 'releases', sql: releases },
  { version: 7, name: 'audit trail', sql: audit },
  { version: 8, name: 'feedback handled', sql: feedbackHandled },
  { version: 9, name: 'roadmap admin', sql: roadmapAdmin },
  { version: 10, name: 'outbound events', sql: outbox },
  { version: 11, name: 'storage budgets', sql: budgets },
  { version: 12, name: 'usage counts', sql: usage },
  { version: 13, name: 'orders', sql: orders },
  { version: 14, name: 'votes per network', sql: votesPerNetwork },
  { version: 15, name: 'order amounts', sql: orderAmounts },
  { version: 16, name: 'unused budget function', sql: dropBudgetFunction },
  { version: 17, name: 'budget client hash', sql: budgetClientHash },
  { version: 18, name: 'feedback by time', sql: feedbackByTime },
  { version: 19, name: 'release integrity', sql: releaseIntegrity },
  { version: 20, name: 'payment events in any order', sql: paymentEventsAnyOrder },
  { version: 21, name: 'outbound event retention', sql: outboundEventRetention },
  { version: 23, name: 'license key lookup', sql: licenseKeyLookup },
  { version: 24, name: 'release ramps', sql: releaseRamps },
  { version: 25, name: 'usage kinds of installed versions', sql: usageKinds },
  { version: 26, name: 'mail outbox', sql: mailOutbox },
  { version: 27, name: 'audit actors', sql: auditActors },
  { version: 29, name: 'secret rotation and recorded merges', sql: vendorWeek },
  { version: 30, name: 'distinct installs and bug reporters', sql: distinctClients },
  { version: 31, name: 'resend requests', sql: resendRequests },
  { version: 32, name: 'announced ramp steps', sql: releaseAnnouncedStep },
];
