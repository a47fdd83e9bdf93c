/**
 * In-memory storage: for tests, embedding and trying the server out. Everything is lost on restart.
 *
 * @module
 */
import type {
  CheckoutSession,
  CheckoutState,
  Clock,
  DownloadEvent,
  FeedbackEntry,
  LicenseKeys,
  RoadmapFeature,
  RoadmapFeatureView,
  Storage,
} from '../../core/ports.ts';
import { isRetired, nextCheckoutState } from '../../core/checkout-state.ts';
import { checkRoom, DEFAULT_MEMORY_CAPS, feedbackSize, type MemoryCaps } from './caps.ts';
import { createMemoryRateLimitStore } from './rate-limits.ts';
import { createMemoryInbox } from './inbox.ts';
import { createMemoryOrders } from './orders.ts';
import { createMemoryAuditStore, createMemoryReleaseStore } from './releases.ts';

export { createMemoryRateLimitStore } from './rate-limits.ts';
export { DEFAULT_MEMORY_CAPS, WORKER_MEMORY_LIMITS, type MemoryCaps } from './caps.ts';

/** How often retention looks for unpaid sessions to drop; at most once a second while sessions are full. */
const SWEEP_EVERY_MS = 60_000;
const FULL_SWEEP_EVERY_MS = 1000;

/** Memory storage plus read access for tests and exports. */
export interface MemoryStorage extends Storage {
  readonly feedback: readonly FeedbackEntry[];
  readonly downloads: readonly DownloadEvent[];
}

/**
 * Creates an empty in-memory storage. Every kind of record is capped (a full kind answers 503
 * storage_full), and checkout sessions that never paid are dropped 7 days after they expire, as the SQL
 * storages' retention does.
 *
 * @param options.clock The clock of the rate-limit windows and of retention; the system clock when omitted.
 * @param options.maxRateLimitClients The most clients whose windows are tracked at once.
 * @param options.caps The most records of each kind; `DEFAULT_MEMORY_CAPS` for those not given.
 */
export function createMemoryStorage(
  options: { clock?: Clock; maxRateLimitClients?: number; caps?: Partial<MemoryCaps> } = {},
): MemoryStorage {
  const clock = options.clock ?? { now: () => Date.now() };
  const caps: MemoryCaps = { ...DEFAULT_MEMORY_CAPS, ...options.caps };
  const feedback: FeedbackEntry[] = [];
  const downloads: DownloadEvent[] = [];
  const features = new Map<number, RoadmapFeature>();
  const votes = new Map<number, Set<string>>();
  const sessions = new Map<string, CheckoutSession>();
  /** The ids of the sessions each owner opened, for openCheckouts; retired ones leave with their session. */
  const owned = new Map<string, Set<string>>();
  const ownerOf = new Map<string, string>();
  const licenses = new Map<string, LicenseKeys>();
  const secrets = new Map<string, string>();
  let voteCount = 0;
  let feedbackBytes = 0;
  let lastSweep = -Infinity;

  /** Drops retired sessions: once a minute, or once a second while the cap is reached. */
  const retire = (now: number): void => {
    if (now - lastSweep < (sessions.size < caps.checkoutSessions ? SWEEP_EVERY_MS : FULL_SWEEP_EVERY_MS)) return;
    lastSweep = now;
    for (const [id, session] of sessions) {
      if (!isRetired(session, now)) continue;
      sessions.delete(id);
      const owner = ownerOf.get(id);
      if (owner === undefined) continue;
      ownerOf.delete(id);
      const ids = owned.get(owner)!;
      ids.delete(id);
      if (ids.size === 0) owned.delete(owner);
    }
  };

  const votersOf = (id: number): Set<string> => {
    let voters = votes.get(id);
    if (!voters) votes.set(id, (voters = new Set()));
    return voters;
  };

  return {
    feedback,
    downloads,
    rateLimits: createMemoryRateLimitStore(clock, options.maxRateLimitClients),
    releases: createMemoryReleaseStore(),
    audit: createMemoryAuditStore(),
    inbox: createMemoryInbox(feedback),
    orders: createMemoryOrders(sessions, licenses),

    /** Memory always answers while the process runs. */
    ping() {},

    addFeedback(entry) {
      const size = feedbackSize(entry);
      checkRoom(caps, 'feedbackBytes', feedbackBytes, size);
      feedback.push({ ...entry });
      feedbackBytes += size;
    },
    async recordDownload(event) {
      checkRoom(caps, 'downloads', downloads.length);
      downloads.push({ ...event });
    },

    async syncRoadmap(list) {
      const listed = new Set(list.map((f) => f.id));
      for (const [id, feature] of features) if (!listed.has(id)) feature.visible = false;
      for (const feature of list) features.set(feature.id, { ...feature });
    },
    listRoadmap(voterId): RoadmapFeatureView[] {
      return [...features.values()]
        .filter((f) => f.visible)
        .sort((a, b) => a.id - b.id)
        .map((f) => {
          const voters = votes.get(f.id);
          return {
            id: f.id,
            title: f.title,
            description: f.description,
            category: f.category,
            vote_count: voters?.size ?? 0,
            voted: voters?.has(voterId) ?? false,
            release_version: f.release_version,
          };
        });
    },
    toggleVote(featureId, voterId) {
      if (!features.get(featureId)?.visible) return null;
      const voters = votersOf(featureId);
      const voted = !voters.has(voterId);
      if (voted) {
        checkRoom(caps, 'votes', voteCount);
        voters.add(voterId);
        voteCount++;
      } else {
        voters.delete(voterId);
        voteCount--;
      }
      return { voted, vote_count: voters.size };
    },

    async createCheckout(session, owner) {
      if (sessions.has(session.id)) throw new Error(`checkout session ${session.id} exists already`);
      retire(clock.now());
      checkRoom(caps, 'checkoutSessions', sessions.size);
      sessions.set(session.id, { ...session });
      if (owner === undefined) return;
      ownerOf.set(session.id, owner);
      let ids = owned.get(owner);
      if (!ids) owned.set(owner, (ids = new Set()));
      ids.add(session.id);
    },
    async openCheckouts(owner, now, limit) {
      const expiries: number[] = [];
      for (const id of owned.get(owner) ?? []) {
        const session = sessions.get(id)!;
        if (session.state === 'pending' && session.expiresAt > now) expiries.push(session.expiresAt);
      }
      return expiries.sort((a, b) => a - b).slice(0, limit);
    },
    async getCheckout(id) {
      const session = sessions.get(id);
      return session ? { ...session } : null;
    },
    async advanceCheckout(id, state: CheckoutState) {
      const session = sessions.get(id);
      if (!session) return null;
      session.state = nextCheckoutState(session.state, state);
      return { ...session };
    },
    async saveLicenses(sessionId, keys) {
      const stored = licenses.get(sessionId);
      if (stored) return { keys: { ...stored }, stored: false };
      licenses.set(sessionId, { ...keys });
      return { keys: { ...keys }, stored: true };
    },
    async getLicenses(sessionId) {
      const stored = licenses.get(sessionId);
      return stored ? { ...stored } : null;
    },

    async secret(name, create) {
      const stored = secrets.get(name);
      if (stored !== undefined) return stored;
      const created = await create();
      const raced = secrets.get(name);
      if (raced !== undefined) return raced;
      secrets.set(name, created);
      return created;
    },
  };
}
