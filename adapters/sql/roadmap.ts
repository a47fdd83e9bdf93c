/**
 * Roadmap features and votes in SQL: the content sync, the list seen by one voter, and the atomic toggle.
 *
 * @module
 */
import type { RoadmapFeature, RoadmapFeatureView, VoteResult } from '../../core/ports.ts';
import type { SqlSession } from './client.ts';

const SYNC = `
with listed as (
  select * from jsonb_to_recordset($1::text::jsonb)
    as x(id integer, title text, description text, category text, visible boolean, release_version text)
), upserted as (
  insert into roadmap_features as f (id, title, description, category, visible, release_version)
  select id, title, description, category, visible, release_version from listed
  on conflict (id) do update set
    title = excluded.title,
    description = excluded.description,
    category = excluded.category,
    visible = excluded.visible,
    release_version = excluded.release_version
  where (f.title, f.description, f.category, f.visible, f.release_version)
    is distinct from (excluded.title, excluded.description, excluded.category, excluded.visible, excluded.release_version)
  returning f.id
)
update roadmap_features set visible = false
where visible and id not in (select id from listed)`;

const LIST = `
select f.id, f.title, f.description, f.category, f.vote_count, (v.voter_id is not null) as voted, f.release_version
from roadmap_features f
left join roadmap_votes v on v.feature_id = f.id and v.voter_id = $1::text
where f.visible
order by f.id`;

const TOGGLE = `select now_voted, new_count from toggle_roadmap_vote($1::int, $2::text)`;

/** Feature ids are SQL integers; content cannot define a larger one, so a larger request matches nothing. */
const MAX_FEATURE_ID = 2_147_483_647;

/**
 * Makes the stored features match the content in one statement: changed texts update, features no
 * longer listed are hidden, votes stay.
 *
 * @param db Where to run it.
 * @param features The operator's content.
 */
export async function syncRoadmap(db: SqlSession, features: readonly RoadmapFeature[]): Promise<void> {
  const listed = features.map(({ id, title, description, category, visible, release_version }) => ({
    id,
    title,
    description,
    category,
    visible,
    release_version,
  }));
  await db.query(SYNC, [JSON.stringify(listed)]);
}

/**
 * The visible features in id order, with `voted` for one voter.
 *
 * @param db Where to run it.
 * @param voterId The voter's keyed hash.
 */
export function listRoadmap(db: SqlSession, voterId: string): Promise<RoadmapFeatureView[]> {
  return db.query<RoadmapFeatureView>(LIST, [voterId]);
}

/**
 * Flips one voter's vote (see toggle_roadmap_vote in the migrations).
 *
 * @param db Where to run it.
 * @param featureId The feature.
 * @param voterId The voter's keyed hash.
 * @returns The state afterwards, or null when the feature is missing or hidden.
 */
export async function toggleVote(db: SqlSession, featureId: number, voterId: string): Promise<VoteResult | null> {
  if (!Number.isInteger(featureId) || featureId < 1 || featureId > MAX_FEATURE_ID) return null;
  const rows = await db.query<{ now_voted: boolean | null; new_count: number | null }>(TOGGLE, [featureId, voterId]);
  const row = rows[0];
  if (!row || row.now_voted === null || row.new_count === null) return null;
  return { voted: row.now_voted, vote_count: row.new_count };
}
