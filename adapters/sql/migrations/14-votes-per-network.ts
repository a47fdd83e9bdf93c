/**
 * Migration 14: votes per network.
 *
 * Votes per network (issue 20): each vote keeps the keyed hash of its IPv6 /48 (null for IPv4 and for
 * votes before this version), and a feature's vote_count counts at most p_cap votes of one /48, so that
 * the thousands of /64s a provider gives one customer weigh as a few voters. Each toggle still answers
 * the count after itself: its weight is worked out from its network's votes before it, in order.
 *
 * @module
 */
import type { Migration } from './migration.ts';

export const votesPerNetwork: Migration = {
  version: 14,
  name: 'votes per network',
  sql: `
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
`,
};
