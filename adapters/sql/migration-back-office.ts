/**
 * Migrations 9, 10, 12, 14 and 15 (roadmap admin, outbound events, usage counts, votes per network,
 * order amounts), kept apart from migrations.ts for their length.
 *
 * @module
 */

/**
 * Roadmap admin (core/operator/roadmap.ts): each feature keeps the config file's definition last applied
 * to it (null for a feature made through the operator API), so that a start applies only what the config
 * file changed; and a merged duplicate points at the feature its votes moved to. Features already stored
 * came from the config file as it is now.
 */
export const roadmapAdmin = `
alter table roadmap_features add column seeded jsonb;
alter table roadmap_features add column merged_into integer references roadmap_features (id);
update roadmap_features set seeded = jsonb_build_object('title', title, 'description', description,
  'category', category, 'visible', visible, 'release_version', release_version);
`;

/**
 * Outbound events (core/webhooks): the endpoints, the events and one delivery per endpoint. enqueue_event
 * is called inside the statement or transaction of the change it reports, so a change and its event
 * commit together; with no endpoint that wants the type it writes nothing.
 */
export const outbox = `
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
`;

/** Downloads and update checks by UTC day and bounded labels (core/budgets/usage.ts). */
export const usage = `
create table usage_counts (
  day integer not null,
  kind text not null check (kind in ('download', 'update_check')),
  release text not null,
  source text not null,
  platform text not null,
  count bigint not null,
  primary key (day, kind, release, source, platform)
);
comment on column usage_counts.day is 'UTC day: whole days since 1970-01-01';
`;

/**
 * Votes per network (issue 20): each vote keeps the keyed hash of its IPv6 /48 (null for IPv4 and for
 * votes before this version), and a feature's vote_count counts at most p_cap votes of one /48, so that
 * the thousands of /64s a provider gives one customer weigh as a few voters. Each toggle still answers
 * the count after itself: its weight is worked out from its network's votes before it, in order.
 */
export const votesPerNetwork = `
alter table roadmap_votes add column network text;
comment on column roadmap_votes.network is 'base64url HMAC-SHA-256 of the IPv6 /48 under the voter-secret, or null; never an address';
create index roadmap_votes_by_network on roadmap_votes (feature_id, network) where network is not null;

create function toggle_roadmap_votes(p_features integer[], p_voters text[], p_networks text[], p_cap integer)
returns table (ord integer, now_voted boolean, new_count integer)
language plpgsql as $$
#variable_conflict use_column
begin
  perform 1 from roadmap_features where id = any(p_features) and visible order by id for update;
  return query
  with input as (
    select t.ord::integer as ord, t.feature_id, t.voter_id, t.network
    from unnest(p_features, p_voters, p_networks) with ordinality as t(feature_id, voter_id, network, ord)
  ), features as (
    select f.id, f.vote_count from roadmap_features f
    where f.id in (select feature_id from input) and f.visible
  ), steps as (
    select i.ord, i.feature_id, i.voter_id, i.network, e.voter_id is not null as was_voted,
      ((e.voter_id is not null)::integer
        + row_number() over (partition by i.feature_id, i.voter_id order by i.ord)) % 2 = 1 as now_voted
    from input i
    join features f on f.id = i.feature_id
    left join roadmap_votes e on e.feature_id = i.feature_id and e.voter_id = i.voter_id
  ), held as (
    select n.feature_id, n.network, (select count(*) from roadmap_votes v where v.feature_id = n.feature_id and v.network = n.network)::integer as votes
    from (select distinct feature_id, network from steps where network is not null) n
  ), weighed as (
    select s.*, case
      when s.network is null then (case when s.now_voted then 1 else -1 end)
      when s.now_voted then (coalesce(h.votes, 0) + coalesce(sum(case when s.now_voted then 1 else -1 end) over before_me, 0) < p_cap)::integer
      else -((coalesce(h.votes, 0) + coalesce(sum(case when s.now_voted then 1 else -1 end) over before_me, 0) <= p_cap)::integer)
    end as weight
    from steps s left join held h on h.feature_id = s.feature_id and h.network = s.network
    window before_me as (partition by s.feature_id, s.network order by s.ord rows between unbounded preceding and 1 preceding)
  ), counted as (
    select w.*, (f.vote_count + sum(w.weight) over (partition by w.feature_id order by w.ord))::integer as new_count
    from weighed w join features f on f.id = w.feature_id
  ), final as (
    select distinct on (feature_id, voter_id) feature_id, voter_id, network, was_voted, now_voted
    from counted order by feature_id, voter_id, ord desc
  ), removed as (
    delete from roadmap_votes v using final x
    where x.was_voted and not x.now_voted and v.feature_id = x.feature_id and v.voter_id = x.voter_id
  ), added as (
    insert into roadmap_votes (feature_id, voter_id, network)
    select feature_id, voter_id, network from final where now_voted and not was_voted
  ), recounted as (
    update roadmap_features r set vote_count = x.new_count
    from (select distinct on (feature_id) feature_id, new_count from counted order by feature_id, ord desc) x
    where r.id = x.feature_id
  )
  select i.ord, c.now_voted, c.new_count from input i left join counted c on c.ord = i.ord order by i.ord;
end
$$;
`;

/** What an order paid (issue 21, revenue): the amount in the major unit and the ISO 4217 currency. */
export const orderAmounts = `
alter table checkout_sessions add column amount numeric;
alter table checkout_sessions add column currency text;
`;

/**
 * Migration 18: the operator's numbers (GET /stats) count feedback by day over a range of days: with
 * feedback kept for good, a scan of the whole table grew with every entry ever received.
 */
export const feedbackByTime = `
create index feedback_received_at on feedback (received_at);
`;
