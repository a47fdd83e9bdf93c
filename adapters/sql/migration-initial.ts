/**
 * Migrations 1 to 3 (released, never edited): the first schema and the two forms of the vote toggle that
 * followed it. migrations.ts lists every migration in order.
 *
 * @module
 */

export const initial = `
create table feedback (
  id bigint generated always as identity primary key,
  type text not null check (type in ('feature_request', 'bug_report', 'general', 'review')),
  description text not null,
  email text,
  app_version text,
  rating smallint check (rating between 1 and 5),
  received_at timestamptz not null
);

create table downloads (
  id bigint generated always as identity primary key,
  at timestamptz not null,
  source text,
  platform text not null check (platform in ('windows', 'other')),
  forced boolean not null
);

create table roadmap_features (
  id integer primary key,
  title text not null,
  description text not null,
  category text not null,
  visible boolean not null,
  release_version text,
  vote_count integer not null default 0 check (vote_count >= 0)
);

create table roadmap_votes (
  feature_id integer not null references roadmap_features (id),
  voter_id text not null,
  voted_at timestamptz not null default now(),
  constraint roadmap_votes_one_per_voter primary key (feature_id, voter_id)
);

-- The feature row is the lock: toggles of one feature run one after another, each statement seeing the
-- ones before it, so voted and vote_count always agree. Returns nulls for a missing or hidden feature.
create function toggle_roadmap_vote(p_feature integer, p_voter text, out now_voted boolean, out new_count integer)
language plpgsql as $$
begin
  perform 1 from roadmap_features where id = p_feature and visible for update;
  if not found then
    return;
  end if;
  delete from roadmap_votes where feature_id = p_feature and voter_id = p_voter;
  now_voted := not found;
  if now_voted then
    insert into roadmap_votes (feature_id, voter_id) values (p_feature, p_voter);
  end if;
  update roadmap_features set vote_count = vote_count + (case when now_voted then 1 else -1 end)
    where id = p_feature
    returning vote_count into new_count;
end
$$;

create table checkout_sessions (
  id text primary key,
  sku text not null check (sku in ('standard', 'plus_addon', 'plus_bundle')),
  channel text check (channel in ('store', 'msi')),
  url text not null,
  state text not null check (state in ('pending', 'processing', 'paid', 'expired', 'failed')),
  created_at timestamptz not null,
  expires_at timestamptz not null
);
-- Retention finds sessions that never paid by their expiry.
create index checkout_sessions_unpaid_expiry on checkout_sessions (expires_at)
  where state in ('pending', 'expired', 'failed');

create table licenses (
  session_id text primary key,
  standard_key text,
  plus_key text,
  issued_at timestamptz not null default now()
);

create table secrets (
  name text primary key,
  value text not null,
  created_at timestamptz not null default now()
);

-- Counters are cheap to lose (a crash gives clients a fresh window), so the table skips the WAL; the
-- fill factor leaves room for in-place (HOT) updates of the count.
create unlogged table rate_limits (
  key text primary key,
  count integer not null,
  reset_at timestamptz not null
) with (fillfactor = 70);
create index rate_limits_reset_at on rate_limits (reset_at);
`;

/**
 * Toggles in batches (group commit): one statement and one commit for every toggle that queued while
 * the previous batch ran. Each toggle runs toggle_roadmap_vote in order, so each still sees the ones
 * before it and answers the exact count after itself; the caller orders a batch by feature id so that
 * two instances lock feature rows in the same order.
 */
export const batchedToggles = `
create function toggle_roadmap_votes(p_features integer[], p_voters text[])
returns table (ord integer, now_voted boolean, new_count integer)
language plpgsql as $$
declare
  i integer;
begin
  for i in 1 .. coalesce(array_length(p_features, 1), 0) loop
    ord := i;
    select t.now_voted, t.new_count into now_voted, new_count from toggle_roadmap_vote(p_features[i], p_voters[i]) t;
    return next;
  end loop;
end
$$;
`;

/**
 * The same toggles, set-based: the locks first, then one statement that reads each voter's vote once,
 * derives every toggle's outcome in order with window functions, and writes one delete, one insert and
 * one count per feature. Version 2 ran four statements per toggle, and a feature row touched once per
 * toggle; this answers the same rows (ord, now_voted, new_count) for about 60% of the database time.
 */
export const setBasedToggles = `
create or replace function toggle_roadmap_votes(p_features integer[], p_voters text[])
returns table (ord integer, now_voted boolean, new_count integer)
language plpgsql as $$
#variable_conflict use_column
begin
  -- Lock first, in id order; the statement below then starts after the locks and sees every
  -- commit before them (READ COMMITTED takes a new snapshot per statement).
  perform 1 from roadmap_features where id = any(p_features) and visible order by id for update;
  return query
  with input as (
    select t.ord::integer as ord, t.feature_id, t.voter_id
    from unnest(p_features, p_voters) with ordinality as t(feature_id, voter_id, ord)
  ), features as (
    select f.id, f.vote_count from roadmap_features f
    where f.id in (select feature_id from input) and f.visible
  ), steps as (
    select i.ord, i.feature_id, i.voter_id, e.voter_id is not null as was_voted,
      ((e.voter_id is not null)::integer
        + row_number() over (partition by i.feature_id, i.voter_id order by i.ord)) % 2 = 1 as now_voted
    from input i
    join features f on f.id = i.feature_id
    left join roadmap_votes e on e.feature_id = i.feature_id and e.voter_id = i.voter_id
  ), counted as (
    select s.*, (f.vote_count
      + sum(case when s.now_voted then 1 else -1 end) over (partition by s.feature_id order by s.ord))::integer as new_count
    from steps s join features f on f.id = s.feature_id
  ), final as (
    select distinct on (feature_id, voter_id) feature_id, voter_id, was_voted, now_voted
    from counted order by feature_id, voter_id, ord desc
  ), removed as (
    delete from roadmap_votes v using final x
    where x.was_voted and not x.now_voted and v.feature_id = x.feature_id and v.voter_id = x.voter_id
  ), added as (
    insert into roadmap_votes (feature_id, voter_id)
    select feature_id, voter_id from final where now_voted and not was_voted
  ), recounted as (
    update roadmap_features r set vote_count = x.new_count
    from (select distinct on (feature_id) feature_id, new_count from counted order by feature_id, ord desc) x
    where r.id = x.feature_id
  )
  select i.ord, c.now_voted, c.new_count from input i left join counted c on c.ord = i.ord order by i.ord;
end
$$;
`;

/**
 * Rate-limit keys at rest become keyed hashes (HMAC-SHA-256 under the stored "rate-limit-secret"),
 * written by the code from this version on. The rows before it are keyed by the plain address or /64
 * prefix, and cannot be re-keyed in SQL (the secret and the HMAC live in the application), so they
 * are deleted: they are counters of windows at most a minute long, in an unlogged table that a
 * database crash empties anyway, and losing them gives each client a fresh window once.
 */
