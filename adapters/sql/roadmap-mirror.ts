/**
 * The roadmap held in process memory over a database that no other process writes (PGlite, whose data
 * directory one process holds): reads are answered from memory, and every write still goes to SQL first
 * and reaches memory only once committed, so memory always shows committed, exact counts.
 *
 * @module
 */
import {
  DEFAULT_VOTES_PER_NETWORK,
  type FeatureStore,
  type RoadmapFeature,
  type RoadmapFeatureView,
  type RoadmapSyncReport,
  type VoteResult,
  voteWeight,
} from '../../core/ports/ports.ts';
import { createBatcher } from './batch.ts';
import type { SqlSession } from './client.ts';
import { featureView } from './roadmap.ts';

type Feature = Omit<RoadmapFeatureView, 'voted'>;

const FEATURES = `
select id, title, description, category, vote_count, release_version
from roadmap_features where visible order by id`;

const VOTES = `select feature_id, voter_id, network from roadmap_votes`;

/**
 * The net effect of a batch of toggles, worked out in memory: the votes withdrawn ($1 features, $2
 * voters), the votes cast ($3, $4), and each touched feature's count afterwards ($5 ids, $6 counts).
 * One statement, one commit.
 */
const WRITE_VOTES = `
with withdrawn as (
  delete from roadmap_votes v
  using unnest($1::text[]::int[], $2::text[]) as d(feature_id, voter_id)
  where v.feature_id = d.feature_id and v.voter_id = d.voter_id
), cast_votes as (
  insert into roadmap_votes (feature_id, voter_id, network)
  select feature_id, voter_id, network from unnest($3::text[]::int[], $4::text[], $7::text[]) as a(feature_id, voter_id, network)
)
update roadmap_features r set vote_count = c.vote_count
from unnest($5::text[]::int[], $6::text[]::int[]) as c(id, vote_count)
where r.id = c.id`;

interface Toggle {
  featureId: number;
  voterId: string;
  network: string | null;
}

/** One (feature, voter) pair a batch touches: whether it was voted before the batch, and after. */
interface Change extends Toggle {
  before: boolean;
  after: boolean;
}

/** The roadmap part of the storage port, answered from memory. */
export interface RoadmapMirror {
  syncRoadmap(features: readonly RoadmapFeature[]): Promise<RoadmapSyncReport>;
  listRoadmap(voterId: string): Promise<RoadmapFeatureView[]>;
  toggleVote(featureId: number, voterId: string, network?: string | null): Promise<VoteResult | null>;
  features: FeatureStore;
  /**
   * Runs a unit of work (change.ts) in turn with the toggle batches, then reloads the features, and the
   * votes, when it says it touched them (only once it committed: a change that throws wrote nothing).
   */
  followChange<T>(work: () => Promise<T>, touched: () => { features: boolean; votes: boolean }): Promise<T>;
}

/**
 * Creates the mirror; it loads the visible features and every vote once, then follows the writes.
 * Toggles are batched (batch.ts): a batch's outcomes are worked out in memory, in order, and only its net
 * changes are written, in one statement; memory takes them and the toggles are answered once it commits.
 *
 * The operator's edits (features) run one at a time with the toggle batches, and memory reloads the
 * features after each; after a merge or an unmerge (rare, by an operator) it reloads the votes from the database.
 *
 * @param db The database.
 * @param sql The content sync and the operator's feature store it mirrors.
 * @returns The roadmap operations of the storage port.
 */
export function createRoadmapMirror(
  db: SqlSession,
  sql: { syncRoadmap(features: readonly RoadmapFeature[]): Promise<RoadmapSyncReport>; features: FeatureStore },
  votesPerNetwork = DEFAULT_VOTES_PER_NETWORK,
): RoadmapMirror {
  let features: Feature[] = [];
  const byId = new Map<number, Feature>();
  /** Each voter's voted features; a voter without votes has no entry. */
  const votesOf = new Map<string, Set<number>>();
  /** The list as seen by any voter without votes, shared until a count changes. */
  let unvoted: RoadmapFeatureView[] | null = null;

  const loadFeatures = async (): Promise<void> => {
    features = await db.query<Feature>(FEATURES);
    byId.clear();
    for (const feature of features) byId.set(feature.id, feature);
    unvoted = null;
  };
  /** Votes per feature and IPv6 /48 ("feature network"), for the cap on what one network's votes count. */
  const networkVotes = new Map<string, number>();
  const networkKey = (featureId: number, network: string) => `${featureId} ${network}`;
  const countNetwork = (featureId: number, network: string | null, change: 1 | -1) => {
    if (network === null) return;
    const key = networkKey(featureId, network);
    const votes = (networkVotes.get(key) ?? 0) + change;
    if (votes === 0) networkVotes.delete(key);
    else networkVotes.set(key, votes);
  };
  const loadVotes = async (): Promise<void> => {
    votesOf.clear();
    networkVotes.clear();
    for (const row of await db.query<{ feature_id: number; voter_id: string; network: string | null }>(VOTES)) {
      record(row.voter_id, row.feature_id, true);
      countNetwork(row.feature_id, row.network, 1);
    }
  };
  const load = (async () => {
    await loadFeatures();
    await loadVotes();
  })();
  let loaded = false;
  void load.then(() => (loaded = true), () => undefined);

  function record(voterId: string, featureId: number, voted: boolean): void {
    let chosen = votesOf.get(voterId);
    if (voted) {
      if (!chosen) votesOf.set(voterId, chosen = new Set());
      chosen.add(featureId);
    } else if (chosen) {
      chosen.delete(featureId);
      if (chosen.size === 0) votesOf.delete(voterId);
    }
  }

  const list = (voterId: string): RoadmapFeatureView[] => {
    const voted = votesOf.get(voterId);
    if (!voted) return (unvoted ??= features.map((f) => featureView(f, false)));
    return features.map((f) => featureView(f, voted.has(f.id)));
  };

  const toggleBatch = async (batch: Toggle[]): Promise<(VoteResult | null)[]> => {
    const changes = new Map<string, Change>();
    const counts = new Map<number, number>();
    /** Each touched network's votes as the batch goes. */
    const inBatch = new Map<string, number>();
    const results = batch.map(({ featureId, voterId, network }): VoteResult | null => {
      const feature = byId.get(featureId);
      if (!feature) return null;
      const pair = `${featureId}:${voterId}`;
      let change = changes.get(pair);
      if (!change) {
        const before = votesOf.get(voterId)?.has(featureId) ?? false;
        changes.set(pair, change = { featureId, voterId, network, before, after: before });
      }
      change.after = !change.after;
      const key = network === null ? null : networkKey(featureId, network);
      const held = key === null ? 0 : (inBatch.get(key) ?? networkVotes.get(key) ?? 0);
      const weight = voteWeight(change.after, network, held, votesPerNetwork);
      if (key !== null) inBatch.set(key, held + (change.after ? 1 : -1));
      const count = (counts.get(featureId) ?? feature.vote_count) + weight;
      counts.set(featureId, count);
      return { voted: change.after, vote_count: count };
    });
    const net = [...changes.values()].filter((change) => change.before !== change.after);
    const withdrawn = net.filter((change) => change.before);
    const cast = net.filter((change) => change.after);
    const touched = [...counts].filter(([id, count]) => byId.get(id)!.vote_count !== count);
    if (net.length > 0 || touched.length > 0) {
      await db.query(WRITE_VOTES, [
        withdrawn.map((c) => String(c.featureId)),
        withdrawn.map((c) => c.voterId),
        cast.map((c) => String(c.featureId)),
        cast.map((c) => c.voterId),
        touched.map(([id]) => String(id)),
        touched.map(([, count]) => String(count)),
        cast.map((c) => c.network),
      ]);
    }
    // Committed: memory follows.
    for (const change of net) {
      record(change.voterId, change.featureId, change.after);
      countNetwork(change.featureId, change.network, change.after ? 1 : -1);
    }
    for (const [id, count] of touched) byId.get(id)!.vote_count = count;
    if (touched.length > 0) unvoted = null;
    return results;
  };
  // One write at a time, toggle batch or edit, so each starts from the last.
  let tail: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const before = tail;
    const run = load.then(() => before).then(work);
    tail = run.catch(() => undefined);
    return run;
  };
  const toggle = createBatcher<Toggle, VoteResult | null>((batch) => serial(() => toggleBatch(batch)), { maxInFlight: 1 });
  /** Runs an edit, then reloads the features from what it committed. */
  const edited = <T>(work: () => Promise<T>): Promise<T> =>
    serial(async () => {
      const result = await work();
      await loadFeatures();
      return result;
    });

  return {
    followChange: (work, touched) =>
      serial(async () => {
        const result = await work();
        const { features: edits, votes } = touched();
        if (edits) await loadFeatures();
        if (votes) await loadVotes();
        return result;
      }),
    syncRoadmap: (list) => edited(() => sql.syncRoadmap(list)),
    features: {
      list: () => sql.features.list(),
      create: (fields) => edited(() => sql.features.create(fields)),
      update: (id, fields) => edited(() => sql.features.update(id, fields)),
      merge: (from, into) =>
        edited(async () => {
          const outcome = await sql.features.merge(from, into);
          if (outcome.kind === 'merged') await loadVotes();
          return outcome;
        }),
      unmerge: (id) =>
        edited(async () => {
          const outcome = await sql.features.unmerge(id);
          if (outcome.kind === 'unmerged') await loadVotes();
          return outcome;
        }),
    },
    listRoadmap: async (voterId) => {
      if (!loaded) await load;
      return list(voterId);
    },
    toggleVote: (featureId, voterId, network = null) =>
      loaded ? toggle({ featureId, voterId, network }) : load.then(() => toggle({ featureId, voterId, network })),
  };
}
