/**
 * The roadmap as the operator edits it, in PostgreSQL and PGlite: every feature with its votes, create,
 * update and merge. A merge is one transaction that locks both feature rows in id order, as the vote
 * toggles do (roadmap.ts), so toggles queue behind it and every count stays exact.
 *
 * @module
 */
import { DEFAULT_VOTES_PER_NETWORK, type FeatureFields, type FeatureStore, type MergeOutcome, type StoredFeature } from '../../core/ports/ports.ts';
import type { SqlClient } from './client.ts';
import { type ChangeTouches, UNFOLLOWED } from './change.ts';
import { COLUMNS, LOCK_BOTH, RECOUNT } from './feature-rows.ts';
import { RECORD_MERGE, unmergeFeature } from './unmerge.ts';

const LIST = `select ${COLUMNS} from roadmap_features order by id`;

/** The next id above every existing one; the table lock keeps two creates from taking the same. */
const CREATE = `
insert into roadmap_features (id, title, description, category, visible, release_version)
select coalesce(max(id), 0) + 1, $1::text, $2::text, $3::text, $4::boolean, $5::text from roadmap_features
returning ${COLUMNS}`;

/** Each field is changed only when given ($n is null when not); showing a feature ends its merge. */
const UPDATE = `
update roadmap_features set
  title = coalesce($2::text, title),
  description = coalesce($3::text, description),
  category = coalesce($4::text, category),
  visible = coalesce($5::boolean, visible),
  release_version = case when $6::boolean then $7::text else release_version end,
  merged_into = case when $5::boolean then null else merged_into end,
  merge_recorded = merge_recorded and not coalesce($5::boolean, false)
where id = $1::int
returning ${COLUMNS}`;

const MOVE_VOTES = `
with moved as (
  insert into roadmap_votes (feature_id, voter_id, voted_at, network)
  select $2::int, voter_id, voted_at, network from roadmap_votes where feature_id = $1::int
  on conflict do nothing
  returning 1
)
select count(*)::int as moved from moved`;
const DROP_VOTES = `delete from roadmap_votes where feature_id = $1::int`;

const RETIRE =
  `update roadmap_features set visible = false, vote_count = 0, merged_into = $2::int, merge_recorded = true where id = $1::int returning ${COLUMNS}`;

/** Creates the feature store over a database; each write says so to `touches` (change.ts). */
export function createSqlFeatureStore(db: SqlClient, votesPerNetwork = DEFAULT_VOTES_PER_NETWORK, touches: ChangeTouches = UNFOLLOWED): FeatureStore {
  return {
    list: () => db.query<StoredFeature>(LIST),
    async create(f: FeatureFields) {
      touches.features(false);
      return db.transaction(async (tx) => {
        await tx.query('lock table roadmap_features in share row exclusive mode');
        const [row] = await tx.query<StoredFeature>(CREATE, [f.title, f.description, f.category, f.visible, f.release_version]);
        return row!;
      });
    },
    async update(id, f) {
      touches.features(false);
      const params = [
        id,
        f.title ?? null,
        f.description ?? null,
        f.category ?? null,
        f.visible ?? null,
        f.release_version !== undefined,
        f.release_version ?? null,
      ];
      return (await db.write<StoredFeature>(UPDATE, params))[0] ?? null;
    },
    merge(from, into) {
      touches.features(true);
      return db.transaction(async (tx): Promise<MergeOutcome> => {
        const locked = await tx.query<StoredFeature>(LOCK_BOTH, [from, into]);
        const source = locked.find((f) => f.id === from);
        const target = locked.find((f) => f.id === into);
        if (!source) return { kind: 'not_found', id: from };
        if (!target) return { kind: 'not_found', id: into };
        if (source.merged_into !== null) return { kind: 'already_merged', from: source };
        if (!target.visible) return { kind: 'hidden_target', into: target };
        await tx.query(RECORD_MERGE, [from, into]);
        const [{ moved } = { moved: 0 }] = await tx.query<{ moved: number }>(MOVE_VOTES, [from, into]);
        await tx.query(DROP_VOTES, [from]);
        const [merged] = await tx.query<StoredFeature>(RECOUNT, [into, votesPerNetwork]);
        const [retired] = await tx.query<StoredFeature>(RETIRE, [from, into]);
        return { kind: 'merged', from: retired!, into: merged!, moved };
      });
    },
    unmerge(id) {
      touches.features(true);
      return db.transaction((tx) => unmergeFeature(tx, id, votesPerNetwork));
    },
  };
}
