/**
 * The outbox's operator statements beside the delivery loop's (outbox.ts): replay every failed delivery,
 * a test event to one endpoint, delete an endpoint, rotate its secret (migration 29 keeps the old one for
 * its grace period).
 *
 * @module
 */
import { eventBody, TEST_EVENT_TYPE } from '../../core/ports/events.ts';
import type { SqlValue } from './client.ts';
import { epochMs, fromEpochMs } from './time.ts';

/** An endpoint as the port gives it (never its secrets). */
export const ENDPOINT = `id, url, to_json(events) as events, format, enabled, ${epochMs('created_at')} as "createdAt"`;

/** Up to $2 failed deliveries (of endpoint $3, or any), oldest first, pending again at $1; and the failed ones left. */
export const REPLAY_FAILED = `
with failed as (
  select id from webhook_deliveries where state = 'failed' and ($3::int is null or endpoint_id = $3::int)
), chosen as (
  select id from webhook_deliveries where id in (select id from failed) order by id limit $2::int for update
), replayed as (
  update webhook_deliveries d set state = 'pending', attempts = 0, next_attempt_at = ${fromEpochMs('$1')}, delivered_at = null
  from chosen where d.id = chosen.id returning 1
)
select (select count(*) from replayed)::int as replayed, ((select count(*) from failed) - (select count(*) from replayed))::int as remaining`;

/** The test event and its one delivery, to endpoint $1 only (nothing when there is none); the delivery's id. */
export const SEND_TEST = `
with event as (
  insert into outbound_events (event_id, type, body, created_at)
  select 'msg_' || replace(gen_random_uuid()::text, '-', ''), $2::text, $3::text, ${fromEpochMs('$4')}
  from webhook_endpoints where id = $1::int
  returning id
)
insert into webhook_deliveries (event_id, endpoint_id, next_attempt_at)
select id, $1::int, ${fromEpochMs('$4')} from event
returning id::int as id`;

/** The parameters of SEND_TEST. */
export const testEventParams = (endpointId: number, data: Record<string, unknown>, at: number): SqlValue[] => [
  endpointId,
  TEST_EVENT_TYPE,
  eventBody({ type: TEST_EVENT_TYPE, data }, at),
  at,
];

/** Deletes endpoint $1 (its deliveries go with it: on delete cascade); the endpoint as it was and how many. */
export const DELETE_ENDPOINT = `
delete from webhook_endpoints where id = $1::int
returning ${ENDPOINT}, (select count(*) from webhook_deliveries where endpoint_id = $1::int)::int as dropped`;

/** A new secret ($2); the old one kept until $3 (ms), or dropped at once when $3 is null. */
export const ROTATE_SECRET = `
update webhook_endpoints set
  previous_secret = case when $3::float8 is null then null else secret end,
  previous_secret_until = ${fromEpochMs('$3')},
  secret = $2::text
where id = $1::int
returning ${ENDPOINT}`;
