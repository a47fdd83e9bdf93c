/**
 * The statements a merge and its undoing share (features.ts, unmerge.ts): a feature's columns as the port
 * gives them, both rows locked in id order, and a feature's count as the toggles keep it.
 *
 * @module
 */

export const COLUMNS = `id, title, description, category, visible, release_version, vote_count, merged_into,
  seeded is not null as from_config`;

export const LOCK_BOTH = `select ${COLUMNS} from roadmap_features where id in ($1::int, $2::int) order by id for update`;

/** The count as the toggles keep it: every vote without a network, at most $2 of each IPv6 /48. */
export const RECOUNT = `
update roadmap_features set vote_count = (
  select coalesce(sum(case when network is null then n else least(n, $2::int) end), 0)
  from (select network, count(*) as n from roadmap_votes where feature_id = $1::int group by network) g
)
where id = $1::int returning ${COLUMNS}`;
