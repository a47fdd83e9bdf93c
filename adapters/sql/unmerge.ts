/**
 * Undoing a roadmap merge in PostgreSQL and PGlite (migration 29): a merge records the duplicate's votes
 * as they were (`roadmap_merged_votes`, with whether each moved), and an unmerge puts back those whose
 * voter still votes for the target, shows the duplicate and recounts both, in one transaction that locks
 * both feature rows in id order as a merge does.
 *
 * @module
 */
import type { StoredFeature, UnmergeOutcome } from '../../core/ports/ports.ts';
import type { SqlSession } from './client.ts';
import { COLUMNS, LOCK_BOTH, RECOUNT } from './feature-rows.ts';

/** Records duplicate $1's votes before they move to $2 (a voter of both: not moved). */
export const RECORD_MERGE = `
with cleared as (delete from roadmap_merged_votes where feature_id = $1::int)
insert into roadmap_merged_votes (feature_id, voter_id, voted_at, network, moved)
select $1::int, v.voter_id, v.voted_at, v.network,
  not exists (select 1 from roadmap_votes t where t.feature_id = $2::int and t.voter_id = v.voter_id)
from roadmap_votes v where v.feature_id = $1::int`;

const RECORDED = `select merge_recorded as recorded from roadmap_features where id = $1::int`;

/** Puts back on $1 the recorded votes whose voter still votes for $2; a moved one leaves $2. */
const RESTORE = `
with kept as (
  select r.voter_id, r.voted_at, r.network, r.moved from roadmap_merged_votes r
  join roadmap_votes t on t.feature_id = $2::int and t.voter_id = r.voter_id
  where r.feature_id = $1::int
), left_target as (
  delete from roadmap_votes t using kept where t.feature_id = $2::int and t.voter_id = kept.voter_id and kept.moved
), back as (
  insert into roadmap_votes (feature_id, voter_id, voted_at, network)
  select $1::int, voter_id, voted_at, network from kept
  on conflict do nothing
  returning 1
)
select count(*)::int as restored from back`;

const FORGET = `delete from roadmap_merged_votes where feature_id = $1::int`;
const SHOW = `update roadmap_features set visible = true, merged_into = null, merge_recorded = false where id = $1::int`;

/** The unmerge of `id` inside `tx`. */
export async function unmergeFeature(tx: SqlSession, id: number, votesPerNetwork: number): Promise<UnmergeOutcome> {
  const [before] = await tx.query<StoredFeature>(`select ${COLUMNS} from roadmap_features where id = $1::int`, [id]);
  if (!before) return { kind: 'not_found', id };
  if (before.merged_into === null) return { kind: 'not_merged', feature: before };
  const into = before.merged_into;
  const locked = await tx.query<StoredFeature>(LOCK_BOTH, [id, into]);
  const feature = locked.find((f) => f.id === id)!;
  const target = locked.find((f) => f.id === into)!;
  // Changed between the read and the lock: answer as of the lock.
  if (feature.merged_into !== into) return feature.merged_into === null ? { kind: 'not_merged', feature } : unmergeFeature(tx, id, votesPerNetwork);
  const [{ recorded } = { recorded: false }] = await tx.query<{ recorded: boolean }>(RECORDED, [id]);
  if (!recorded) return { kind: 'not_recorded', feature };
  if (target.merged_into !== null) return { kind: 'target_merged', into: target };
  const [{ restored } = { restored: 0 }] = await tx.query<{ restored: number }>(RESTORE, [id, into]);
  await tx.query(FORGET, [id]);
  await tx.query(SHOW, [id]);
  const [shown] = await tx.query<StoredFeature>(RECOUNT, [id, votesPerNetwork]);
  const [from] = await tx.query<StoredFeature>(RECOUNT, [into, votesPerNetwork]);
  return { kind: 'unmerged', shown: shown!, from: from!, restored };
}
