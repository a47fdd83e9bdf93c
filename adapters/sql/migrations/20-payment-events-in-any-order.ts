/**
 * Migration 20 (issue 32, hardening): payment events in any order.
 *
 * Refunds and disputes in any order of events (core/ports/order-state.ts withPaymentEvent): each dispute of an
 * order by the provider's id, and the refunds and disputes that came before their payment was known
 * here, kept until the order it pays for is fulfilled.
 *
 * @module
 */
import type { Migration } from './migration.ts';

export const paymentEventsInAnyOrder: Migration = {
  version: 20,
  name: 'payment events in any order',
  sql: `
alter table checkout_sessions add column disputes jsonb not null default '{}'::jsonb;
update checkout_sessions set disputes = jsonb_build_object('', case when dispute_won then 'won' else 'open' end) where disputed;
create table payment_events_kept (
  payment_ref text not null,
  flag text not null check (flag in ('refunded', 'disputed', 'dispute_won')),
  dispute text not null,
  received_at timestamptz not null,
  primary key (payment_ref, flag, dispute)
);
`,
};
