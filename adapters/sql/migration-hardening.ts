/**
 * Migrations of issue 32's hardening, kept apart from migrations.ts.
 *
 * @module
 */

/**
 * Refunds and disputes in any order of events (core/ports/order-state.ts withPaymentEvent): each dispute of an
 * order by the provider's id, and the refunds and disputes that came before their payment was known
 * here, kept until the order it pays for is fulfilled.
 */
export const paymentEventsAnyOrder = `
alter table checkout_sessions add column disputes jsonb not null default '{}'::jsonb;
update checkout_sessions set disputes = jsonb_build_object('', case when dispute_won then 'won' else 'open' end) where disputed;
create table payment_events_kept (
  payment_ref text not null,
  flag text not null check (flag in ('refunded', 'disputed', 'dispute_won')),
  dispute text not null,
  received_at timestamptz not null,
  primary key (payment_ref, flag, dispute)
);
`;

/**
 * Retention of outbound events (adapters/sql/retention.ts): the age range, and the cascade of an event's
 * deliveries (the foreign key had no index, so each deleted event read every delivery).
 */
export const outboundEventRetention = `
create index outbound_events_created_at on outbound_events (created_at);
create index webhook_deliveries_event on webhook_deliveries (event_id);
`;

/**
 * Migration 23 (issue 35): POST /api/v1/licenses/validate finds a key's order by the key as issued
 * (adapters/sql/orders.ts ofLicenseKey). Indexes on the columns that already hold the keys: nothing new is
 * stored. Hash indexes: only equality is asked, and a 143-character key makes a large b-tree entry.
 */
export const licenseKeyLookup = `
create index licenses_standard_key on licenses using hash (standard_key);
create index licenses_plus_key on licenses using hash (plus_key);
`;
