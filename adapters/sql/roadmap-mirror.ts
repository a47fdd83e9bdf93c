/**
 * The roadmap held in process memory over a database that no other process writes (PGlite, whose data
 * directory one process holds): reads are answered from memory, and every write still goes to SQL first
 * and reaches memory only once committed, so memory always shows committed, exact counts.
 *
 * @module
 */
import type { RoadmapFeature, RoadmapFeatureView, VoteResult } from '../../core/ports.ts';
import type { SqlSession } from './client.ts';

type Feature = Omit<RoadmapFeatureView, 'voted'>;

const FEATURES = `
select id, title, description, category, vote_count, release_version
from roadmap_features where visible order by id`;

const VOTES = `select feature_id, voter_id from roadmap_votes`;

/** The roadmap part of the storage port, answered from memory. */
export interface RoadmapMirror {
  syncRoadmap(features: readonly RoadmapFeature[]): Promise<void>;
  listRoadmap(voterId: string): RoadmapFeatureView[] | Promise<RoadmapFeatureView[]>;
  toggleVote(featureId: number, voterId: string): Promise<VoteResult | null>;
}

/**
 * Creates the mirror; it loads the visible features and every vote once, then follows the writes.
 *
 * @param db The database.
 * @param sql The SQL operations it mirrors: the content sync and the (batched) toggle.
 * @returns The roadmap operations of the storage port.
 */
export function createRoadmapMirror(
  db: SqlSession,
  sql: {
    syncRoadmap(features: readonly RoadmapFeature[]): Promise<void>;
    toggleVote(featureId: number, voterId: string): Promise<VoteResult | null>;
  },
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
  const load = (async () => {
    await loadFeatures();
    for (const row of await db.query<{ feature_id: number; voter_id: string }>(VOTES)) record(row.voter_id, row.feature_id, true);
  })();
  let loaded = false;
  void load.then(() => (loaded = true), () => undefined);

  function record(voterId: string, featureId: number, voted: boolean): void {
    let chosen = votesOf.get(voterId);
    if (voted) {
      if (!chosen) votesOf.set(voterId, (chosen = new Set()));
      chosen.add(featureId);
    } else if (chosen) {
      chosen.delete(featureId);
      if (chosen.size === 0) votesOf.delete(voterId);
    }
  }

  // The fields in the order of the API's answer.
  const view = (f: Feature, voted: boolean): RoadmapFeatureView => ({
    id: f.id,
    title: f.title,
    description: f.description,
    category: f.category,
    vote_count: f.vote_count,
    voted,
    release_version: f.release_version,
  });
  const list = (voterId: string): RoadmapFeatureView[] => {
    const voted = votesOf.get(voterId);
    if (!voted) return (unvoted ??= features.map((f) => view(f, false)));
    return features.map((f) => view(f, voted.has(f.id)));
  };

  const toggle = async (featureId: number, voterId: string): Promise<VoteResult | null> => {
    const result = await sql.toggleVote(featureId, voterId);
    if (result) {
      record(voterId, featureId, result.voted);
      const feature = byId.get(featureId);
      if (feature) feature.vote_count = result.vote_count;
      unvoted = null;
    }
    return result;
  };

  return {
    async syncRoadmap(list) {
      await load;
      await sql.syncRoadmap(list);
      await loadFeatures();
    },
    listRoadmap: (voterId) => (loaded ? list(voterId) : load.then(() => list(voterId))),
    toggleVote: (featureId, voterId) => (loaded ? toggle(featureId, voterId) : load.then(() => toggle(featureId, voterId))),
  };
}
