/**
 * The roadmap in memory: features, one vote set per feature, the config file's roadmap applied as the SQL
 * storages apply it (only what it changed since last applied), and the operator's edits.
 *
 * @module
 */
import {
  DEFAULT_VOTES_PER_NETWORK,
  type FeatureChange,
  type FeatureFields,
  type FeatureStore,
  type RoadmapFeature,
  type RoadmapFeatureView,
  type RoadmapSyncReport,
  type StoredFeature,
  type VoteResult,
  voteWeight,
} from '../../core/ports/ports.ts';
import { addMember, deleteKey, deleteMember, type MemoryFace, patch, setKey, type Undo } from './undo.ts';
import { checkRoom, type MemoryCaps, VOTES_TAKEN_BACK } from './caps.ts';

interface Feature extends FeatureFields {
  id: number;
  merged_into: number | null;
  /** The config file's definition last applied to it, as JSON; null for a feature made through the API. */
  seeded: string | null;
}

export interface MemoryRoadmap {
  syncRoadmap(features: readonly RoadmapFeature[]): Promise<RoadmapSyncReport>;
  listRoadmap(voterId: string): Promise<RoadmapFeatureView[]>;
  toggleVote(featureId: number, voterId: string, network?: string | null): Promise<VoteResult | null>;
  /** The operator's edits: a change's face undoes its own writes when the change throws. */
  features: MemoryFace<FeatureStore>;
}

const seedOf = (f: RoadmapFeature): string => JSON.stringify([f.title, f.description, f.category, f.visible, f.release_version]);

/**
 * Creates an empty roadmap whose votes count against `caps.votes`. A feature's vote_count counts at most
 * `votesPerNetwork` votes of one IPv6 /48.
 */
export function createMemoryRoadmap(caps: MemoryCaps, votesPerNetwork = DEFAULT_VOTES_PER_NETWORK): MemoryRoadmap {
  const features = new Map<number, Feature>();
  const votes = new Map<number, Set<string>>();
  let voteCount = 0;
  /** Each IPv6 voter's /48 (a /64 lies in one /48), and the votes per feature and /48. */
  const networkOf = new Map<string, string>();
  const networkVotes = new Map<string, number>();
  const held = (featureId: number, network: string) => networkVotes.get(`${featureId} ${network}`) ?? 0;
  /** A feature's count: every IPv4 voter, at most votesPerNetwork of each /48. */
  const countOf = (featureId: number): number => {
    const voters = votes.get(featureId);
    if (!voters) return 0;
    let count = 0;
    const perNetwork = new Map<string, number>();
    for (const voter of voters) {
      const network = networkOf.get(voter);
      if (network === undefined) count++;
      else perNetwork.set(network, (perNetwork.get(network) ?? 0) + 1);
    }
    for (const n of perNetwork.values()) count += Math.min(n, votesPerNetwork);
    return count;
  };
  /** Counts are kept per feature, changed by each toggle's weight. */
  const counts = new Map<number, number>();

  const votersOf = (id: number, undo?: Undo): Set<string> => {
    let voters = votes.get(id);
    if (!voters) setKey(votes, id, voters = new Set(), undo);
    return voters;
  };
  /** Moves the total of votes held by `by`; undone by the opposite move. */
  const countVotes = (by: number, undo: Undo | undefined): void => {
    voteCount += by;
    undo?.(() => (voteCount -= by));
  };
  const stored = (f: Feature): StoredFeature => ({
    id: f.id,
    title: f.title,
    description: f.description,
    category: f.category,
    visible: f.visible,
    release_version: f.release_version,
    vote_count: counts.get(f.id) ?? 0,
    merged_into: f.merged_into,
    from_config: f.seeded !== null,
  });
  const byId = (): Feature[] => [...features.values()].sort((a, b) => a.id - b.id);
  /** The votes a merge moved, by duplicate, as it found them (a voter of both: not moved), so that it can be undone. */
  const recorded = new Map<number, { voter: string; moved: boolean }[]>();
  /** The networks' votes of two features from their voters now, and their counts as toggles keep them. */
  const recount = (...ids: number[]): void => {
    for (const key of [...networkVotes.keys()]) if (ids.some((id) => key.startsWith(`${id} `))) networkVotes.delete(key);
    for (const id of ids) {
      for (const voter of votes.get(id) ?? []) {
        const network = networkOf.get(voter);
        if (network !== undefined) networkVotes.set(`${id} ${network}`, held(id, network) + 1);
      }
      counts.set(id, countOf(id));
    }
  };

  return {
    async syncRoadmap(list) {
      const first = ![...features.values()].some((f) => f.seeded !== null);
      const report: RoadmapSyncReport = { applied: [], hidden: [], first };
      const listed = new Set(list.map((f) => f.id));
      for (const feature of byId()) {
        if (listed.has(feature.id) || feature.seeded === null) continue;
        if (feature.visible) report.hidden.push(feature.id);
        feature.visible = false;
        feature.seeded = null;
      }
      for (const f of [...list].sort((a, b) => a.id - b.id)) {
        const seed = seedOf(f);
        const before = features.get(f.id);
        if (before?.seeded === seed) continue;
        const { id, title, description, category, visible, release_version } = f;
        const merged_into = visible ? null : (before?.merged_into ?? null);
        features.set(id, { id, title, description, category, visible, release_version, merged_into, seeded: seed });
        report.applied.push(id);
      }
      report.hidden.sort((a, b) => a - b);
      return report;
    },
    async listRoadmap(voterId) {
      return byId()
        .filter((f) => f.visible)
        .map((f) => {
          const voters = votes.get(f.id);
          return {
            id: f.id,
            title: f.title,
            description: f.description,
            category: f.category,
            vote_count: counts.get(f.id) ?? 0,
            voted: voters?.has(voterId) ?? false,
            release_version: f.release_version,
          };
        });
    },
    async toggleVote(featureId, voterId, network = null) {
      if (!features.get(featureId)?.visible) return null;
      const voters = votersOf(featureId);
      const voted = !voters.has(voterId);
      if (voted) checkRoom(caps, 'votes', voteCount, 1, VOTES_TAKEN_BACK);
      const before = network === null ? 0 : held(featureId, network);
      const weight = voteWeight(voted, network, before, votesPerNetwork);
      if (network !== null) {
        networkOf.set(voterId, network);
        networkVotes.set(`${featureId} ${network}`, before + (voted ? 1 : -1));
      }
      if (voted) voters.add(voterId);
      else voters.delete(voterId);
      voteCount += voted ? 1 : -1;
      const count = (counts.get(featureId) ?? 0) + weight;
      counts.set(featureId, count);
      return { voted, vote_count: count };
    },
    features: (undo) => ({
      list: async () => byId().map(stored),
      async create(fields) {
        const id = Math.max(0, ...features.keys()) + 1;
        const feature: Feature = { id, ...pick(fields), merged_into: null, seeded: null };
        setKey(features, id, feature, undo);
        return stored(feature);
      },
      async update(id, fields) {
        const feature = features.get(id);
        if (!feature) return null;
        patch(feature, pick(fields) as Partial<Feature>, undo);
        if (fields.visible === true) {
          patch(feature, { merged_into: null }, undo);
          deleteKey(recorded, id, undo);
        }
        return stored(feature);
      },
      async merge(from, into) {
        const source = features.get(from);
        const target = features.get(into);
        if (!source) return { kind: 'not_found', id: from };
        if (!target) return { kind: 'not_found', id: into };
        if (source.merged_into !== null) return { kind: 'already_merged', from: stored(source) };
        if (!target.visible) return { kind: 'hidden_target', into: stored(target) };
        // Undone last: the counts follow the votes as they are once put back (toggles made meanwhile included).
        undo?.(() => recount(from, into));
        const moving = votes.get(from) ?? new Set<string>();
        const voters = votersOf(into, undo);
        const record = [...moving].map((voter) => ({ voter, moved: !voters.has(voter) }));
        setKey(recorded, from, record, undo);
        for (const voter of moving) addMember(voters, voter, undo);
        const moved = record.filter((r) => r.moved).length;
        countVotes(moved - moving.size, undo);
        deleteKey(votes, from, undo);
        recount(from, into);
        patch(source, { visible: false, merged_into: into }, undo);
        return { kind: 'merged', from: stored(source), into: stored(target), moved };
      },
      async unmerge(id) {
        const feature = features.get(id);
        if (!feature) return { kind: 'not_found', id };
        if (feature.merged_into === null) return { kind: 'not_merged', feature: stored(feature) };
        const record = recorded.get(id);
        if (!record) return { kind: 'not_recorded', feature: stored(feature) };
        const into = feature.merged_into;
        const target = features.get(into)!;
        if (target.merged_into !== null) return { kind: 'target_merged', into: stored(target) };
        undo?.(() => recount(id, into));
        const voters = votersOf(into, undo);
        const back = votersOf(id, undo);
        for (const { voter, moved } of record) {
          // A vote taken back from the target since the merge stays taken back.
          if (!voters.has(voter)) continue;
          if (moved) deleteMember(voters, voter, undo);
          else countVotes(1, undo);
          addMember(back, voter, undo);
        }
        deleteKey(recorded, id, undo);
        recount(id, into);
        patch(feature, { visible: true, merged_into: null }, undo);
        return { kind: 'unmerged', shown: stored(feature), from: stored(target), restored: back.size };
      },
    }),
  };
}

/** Only the fields given, so that `undefined` never overwrites one. */
function pick<T extends FeatureChange>(fields: T): T {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as T;
}
