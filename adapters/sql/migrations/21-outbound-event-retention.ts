/**
 * Migration 21 (issue 32, hardening): outbound event retention.
 *
 * Retention of outbound events (adapters/sql/retention.ts): the age range, and the cascade of an event's
 * deliveries (the foreign key had no index, so each deleted event read every delivery).
 *
 * @module
 */
import type { Migration } from './migration.ts';

export const outboundEventRetention: Migration = {
  version: 21,
  name: 'outbound event retention',
  sql: `
create index outbound_events_created_at on outbound_events (created_at);
create index webhook_deliveries_event on webhook_deliveries (event_id);
`,
};
