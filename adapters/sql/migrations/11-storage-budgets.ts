/**
 * Migration 11: storage budgets.
 *
 * Storage budgets (core/budgets/budgets.ts): the day's feedback bytes per client and in total (client ''). The
 * total's row is the lock: batches of one day, from any instance, are judged one after another against
 * committed counts. The function created here judged in SQL; it read every client of the day, so the
 * writer now judges in TypeScript under the same locks (adapters/sql/records.ts) and migration 16 drops it.
 *
 * @module
 */
import type { Migration } from './migration.ts';

export const storageBudgets: Migration = {
  version: 11,
  name: 'storage budgets',
  sql: `
create table budget_spent (
  kind text not null,
  day integer not null,
  client text not null,
  amount bigint not null,
  primary key (kind, day, client)
);
comment on column budget_spent.day is 'UTC day: whole days since 1970-01-01';
comment on column budget_spent.client is 'base64url HMAC-SHA-256 of the client key under the voter-secret, or empty for all clients; never an address';

create function add_feedback_budgeted(p_rows jsonb, p_day integer, p_per_client bigint, p_total bigint, p_share integer)
returns table (ord integer, refused text, held bigint, spent bigint)
language plpgsql as $$
declare
  v_spent bigint;
  v_held jsonb;
  v_admitted integer[] := '{}';
  v_h bigint;
  v_size bigint;
  v_client text;
  v_events bigint;
  r record;
begin
  insert into budget_spent (kind, day, client, amount) values ('feedback', p_day, '', 0) on conflict do nothing;
  select b.amount into v_spent from budget_spent b
    where b.kind = 'feedback' and b.day = p_day and b.client = '' for update;
  select coalesce(jsonb_object_agg(b.client, b.amount), '{}'::jsonb) into v_held from budget_spent b
    where b.kind = 'feedback' and b.day = p_day
      and b.client in (select e.x->>'client' from jsonb_array_elements(p_rows) as e(x));
  for r in select e.x, e.o::integer as o from jsonb_array_elements(p_rows) with ordinality as e(x, o) order by e.o loop
    v_client := r.x->>'client';
    v_size := (r.x->>'bytes')::bigint;
    v_h := coalesce((v_held->>v_client)::bigint, 0);
    ord := r.o;
    held := v_h;
    spent := v_spent;
    refused := case
      when v_h + v_size > p_per_client then 'client'
      when v_spent + v_size > p_total then 'total'
      when v_h > 0 and (v_h + v_size) * 100 > p_share::bigint * (p_total - (v_spent - v_h)) then 'share'
    end;
    if refused is null then
      v_spent := v_spent + v_size;
      v_held := jsonb_set(v_held, array[v_client], to_jsonb(v_h + v_size));
      v_admitted := v_admitted || r.o;
    end if;
    return next;
  end loop;
  -- The admitted rows and their feedback.received events (migration 10), as the unbudgeted batch writes them.
  with input as (
    select e.x, e.o, nextval(pg_get_serial_sequence('feedback', 'id')) as id
    from jsonb_array_elements(p_rows) with ordinality as e(x, o)
    where e.o = any(v_admitted)
  ), added as (
    insert into feedback (id, type, description, email, app_version, rating, received_at) overriding system value
    select i.id, i.x->>'type', i.x->>'description', i.x->>'email', i.x->>'app_version', (i.x->>'rating')::int,
      to_timestamp((i.x->>'received_at')::float8 / 1000)
    from input i
    order by i.o
  )
  select count(enqueue_event('feedback.received', (i.x->>'event_head') || i.id || (i.x->>'event_tail'),
      to_timestamp((i.x->>'received_at')::float8 / 1000)))
  into v_events
  from input i
  where exists (select 1 from webhook_endpoints where enabled);
  update budget_spent b set amount = v_spent where b.kind = 'feedback' and b.day = p_day and b.client = '';
  insert into budget_spent (kind, day, client, amount)
  select 'feedback', p_day, j.key, j.value::bigint from jsonb_each_text(v_held) as j
  on conflict (kind, day, client) do update set amount = excluded.amount;
end
$$;
`,
};
