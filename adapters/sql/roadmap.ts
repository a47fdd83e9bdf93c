/**
 * Roadmap features and votes in SQL: the content sync, the list seen by one voter, and the atomic toggle.
 *
 * @module
 */
import { DEFAULT_VOTES_PER_NETWORK, type RoadmapFeature, type RoadmapFeatureView, type RoadmapSyncReport, type VoteResult } from '../../core/ports/ports.ts';
import { type BatcherOptions, createBatcher } from './batch.ts';
import type { SqlSession } from './client.ts';

/**
 * The config file's roadmap, applied: a listed feature whose definition differs from the one last applied
 * to it (`seeded`) is written; a feature the file listed before and no longer does is hidden; the others,
 * and every feature made through the operator API (seeded null), keep what they are. Answers each changed
 * id with what was done (a feature hidden already is not reported), and 'first' when no feature came
 * from the file before (every sub-statement sees the table as it was before the statement).
 */
const SYNC = `
with listed as (
  select x.*, jsonb_build_object('title', x.title, 'description', x.description, 'category', x.category,
      'visible', x.visible, 'release_version', x.release_version) as seed
  from jsonb_to_recordset($1::text::jsonb)
    as x(id integer, title text, description text, category text, visible boolean, release_version text)
), applied as (
  insert into roadmap_features as f (id, title, description, category, visible, release_version, seeded)
  select id, title, description, category, visible, release_version, seed from listed
  on conflict (id) do update set
    title = excluded.title,
    description = excluded.description,
    category = excluded.category,
    visible = excluded.visible,
    release_version = excluded.release_version,
    seeded = excluded.seeded,
    merged_into = case when excluded.visible then null else f.merged_into end
  where f.seeded is distinct from excluded.seeded
  returning f.id
), removed as (
  update roadmap_features r set visible = false, seeded = null
  from roadmap_features old
  where old.id = r.id and r.seeded is not null and r.id not in (select id from listed)
  returning r.id, old.visible as was_visible
)
select 'applied' as kind, id from applied
union all
select 'hidden', id from removed where was_visible
union all
select 'first', 0 where not exists (select 1 from roadmap_features where seeded is not null)
order by 2`;

/**
 * The visible features once for a whole batch of readers, each with those of the batch's voters who
 * voted for it (by the primary key: feature, then voter).
 */
const LIST_BATCH = `
select f.id, f.title, f.description, f.category, f.vote_count, f.release_version,
  coalesce((select json_agg(v.voter_id) from roadmap_votes v where v.feature_id = f.id and v.voter_id = any($1::text[])), '[]')::text as voters
from roadmap_features f
where f.visible
order by f.id`;

const TOGGLE_BATCH = `select ord, now_voted, new_count from toggle_roadmap_votes($1::text[]::int[], $2::text[], $3::text[], $4::int)`;

/** Feature ids are SQL integers; content cannot define a larger one, so a larger request matches nothing. */
const MAX_FEATURE_ID = 2_147_483_647;

/**
 * Applies the config file's roadmap in one statement (see SYNC); votes stay.
 *
 * @param db Where to run it.
 * @param features The operator's content.
 */
export async function syncRoadmap(db: SqlSession, features: readonly RoadmapFeature[]): Promise<RoadmapSyncReport> {
  const listed = features.map(({ id, title, description, category, visible, release_version }) => ({
    id,
    title,
    description,
    category,
    visible,
    release_version,
  }));
  const rows = await db.write<{ kind: 'applied' | 'hidden' | 'first'; id: number }>(SYNC, [JSON.stringify(listed)]);
  return {
    first: rows.some((row) => row.kind === 'first'),
    applied: rows.filter((row) => row.kind === 'applied').map((row) => row.id),
    hidden: rows.filter((row) => row.kind === 'hidden').map((row) => row.id),
  };
}

interface ListedFeature {
  id: number;
  title: string;
  description: string;
  category: string;
  vote_count: number;
  release_version: string | null;
  voters: string;
}

/**
 * One feature as a voter sees it, with the fields in the order of the API's answer.
 *
 * @param f The stored feature.
 * @param voted Whether the voter voted for it.
 */
export function featureView(f: Omit<RoadmapFeatureView, 'voted'>, voted: boolean): RoadmapFeatureView {
  return {
    id: f.id,
    title: f.title,
    description: f.description,
    category: f.category,
    vote_count: f.vote_count,
    voted,
    release_version: f.release_version,
  };
}

/**
 * Creates the roadmap reader, batched like the toggle: every reader that arrives while a statement runs
 * is answered by the next one, which reads the features once and the votes of all its voters.
 *
 * @param db Where to run it.
 * @param options Batch size and statements at once (batch.ts).
 * @returns A function answering the visible features in id order, with `voted` for one voter.
 */
export function createRoadmapReader(db: SqlSession, options: BatcherOptions = {}): (voterId: string) => Promise<RoadmapFeatureView[]> {
  return createBatcher<string, RoadmapFeatureView[]>(async (voterIds) => {
    const rows = await db.query<ListedFeature>(LIST_BATCH, [[...new Set(voterIds)]]);
    const features = rows.map((row) => ({ ...row, voters: new Set(JSON.parse(row.voters) as string[]) }));
    return voterIds.map((voterId) => features.map((f) => featureView(f, f.voters.has(voterId))));
  }, options);
}

/**
 * Creates the vote toggle, with group commit (batch.ts): a toggle that arrives while a batch runs waits
 * for it, and all that waited go together in the next statement (see toggle_roadmap_votes in the
 * migrations). With one statement per toggle, toggles of one feature queued on its row lock, each waiting
 * for the previous commit's WAL flush; now a whole batch shares one commit, and each toggle still answers
 * the exact count after itself.
 *
 * @param db Where to run it.
 * @param options Batch size and statements at once (batch.ts).
 * @returns A function that flips one voter's vote: the state afterwards, or null for a missing or hidden feature.
 */
export function createVoteToggle(
  db: SqlSession,
  options: BatcherOptions = {},
  votesPerNetwork = DEFAULT_VOTES_PER_NETWORK,
): (featureId: number, voterId: string, network?: string | null) => Promise<VoteResult | null> {
  const toggle = createBatcher<{ featureId: number; voterId: string; network: string | null }, VoteResult | null>(async (toggles) => {
    // Array.prototype.sort is stable: toggles of one feature keep their order. Feature order keeps two
    // instances from taking feature rows in opposite orders (no deadlock).
    const order = toggles.map((_, i) => i).sort((a, b) => toggles[a]!.featureId - toggles[b]!.featureId);
    const params = [
      order.map((i) => String(toggles[i]!.featureId)),
      order.map((i) => toggles[i]!.voterId),
      order.map((i) => toggles[i]!.network),
      votesPerNetwork,
    ];
    const rows = await db.write<{ ord: number; now_voted: boolean | null; new_count: number | null }>(TOGGLE_BATCH, params);
    if (rows.length !== toggles.length) throw new Error('toggle_roadmap_votes answered fewer rows than toggles');
    const results = new Array<VoteResult | null>(toggles.length).fill(null);
    for (const row of rows) {
      const found = row.now_voted !== null && row.new_count !== null;
      results[order[row.ord - 1]!] = found ? { voted: row.now_voted!, vote_count: row.new_count! } : null;
    }
    return results;
  }, options);
  return (featureId, voterId, network = null) => {
    if (!Number.isInteger(featureId) || featureId < 1 || featureId > MAX_FEATURE_ID) return Promise.resolve(null);
    return toggle({ featureId, voterId, network });
  };
}
