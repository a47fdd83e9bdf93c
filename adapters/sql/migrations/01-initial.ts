/**
 * Migration 1: the first schema (feedback, downloads, the roadmap and its votes with the one-toggle
 * function, checkout sessions and their licenses, named secrets, rate-limit counters).
 *
 * @module
 */
import type { Migration } from './migration.ts';

export const initial: Migration = {
  version: 1,
  name: 'initial',
  sql: `
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
`,
};
