/**
 * Migration 10: outbound events.
 *
 * Outbound events (core/webhooks): the endpoints, the events and one delivery per endpoint. enqueue_event
 * is called inside the statement or transaction of the change it reports, so a change and its event
 * commit together; with no endpoint that wants the type it writes nothing.
 *
 * @module
 */
import type { Migration } from './migration.ts';

export const outboundEvents: Migration = {
  version: 10,
  name: 'outbound events',
  sql: `
create table webhook_endpoints (
  id integer generated always as identity primary key,
  url text not null,
  secret text not null,
  events text[] not null default '{}',
  format text not null default 'standard' check (format in ('standard', 'slack')),
  enabled boolean not null default true,
  created_at timestamptz not null
);
create table outbound_events (
  id bigint generated always as identity primary key,
  event_id text not null unique,
  type text not null,
  body text not null,
  created_at timestamptz not null
);
create table webhook_deliveries (
  id bigint generated always as identity primary key,
  event_id bigint not null references outbound_events (id) on delete cascade,
  endpoint_id integer not null references webhook_endpoints (id) on delete cascade,
  state text not null default 'pending' check (state in ('pending', 'delivered', 'failed')),
  attempts integer not null default 0,
  next_attempt_at timestamptz,
  last_attempt_at timestamptz,
  last_status integer,
  last_error text,
  delivered_at timestamptz
);
create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where state = 'pending';

create function enqueue_event(p_type text, p_body text, p_at timestamptz) returns integer
language plpgsql as $$
declare
  v_event bigint;
  v_count integer;
begin
  perform 1 from webhook_endpoints where enabled and (cardinality(events) = 0 or p_type = any(events));
  if not found then
    return 0;
  end if;
  insert into outbound_events (event_id, type, body, created_at)
  values ('msg_' || replace(gen_random_uuid()::text, '-', ''), p_type, p_body, p_at)
  returning id into v_event;
  insert into webhook_deliveries (event_id, endpoint_id, next_attempt_at)
  select v_event, id, p_at from webhook_endpoints where enabled and (cardinality(events) = 0 or p_type = any(events));
  get diagnostics v_count = row_count;
  return v_count;
end
$$;
`,
};
