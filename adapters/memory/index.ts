/**
 * In-memory storage: for tests, embedding and trying the server out. Everything is lost on restart.
 *
 * @module
 */
import type { CheckoutSession, CheckoutState, Clock, DownloadEvent, FeedbackEntry, KeyWindows, LicenseKeys, Storage } from '../../core/ports/ports.ts';
import { DayLedger } from '../../core/budgets/budgets.ts';
import { isRetired, nextCheckoutState, UNPAID_SESSION_GRACE_MS } from '../../core/ports/checkout-state.ts';
import { checkRoom, DEFAULT_MEMORY_CAPS, feedbackSize, KEPT_UNTIL_RESTART, type MemoryCaps, untilRetirement } from './caps.ts';
import { createMemoryRateLimitStore } from './rate-limits.ts';
import { createMemoryInbox } from './inbox.ts';
import { createMemoryRoadmap } from './roadmap.ts';
import { createMemoryOutbox } from './outbox.ts';
import { createMemoryUsageStore } from './usage.ts';
import { createMemoryInstallStore } from './installs.ts';
import { feedbackReceived } from '../../core/webhooks/events.ts';
import { createMemoryOrders } from './orders.ts';
import { createMemoryAuditStore } from './audit.ts';
import { createMemoryMail } from './mail.ts';
import { createMemoryReleaseStore } from './releases.ts';
import { createMemoryShipping } from './shipping.ts';
import { createMemoryLinks } from './links.ts';
import { createMemoryUpdateFiles } from './update-files.ts';
import { createMemoryChange, facesOf, type MemoryStores } from './change.ts';
import { createMemoryLicenses } from './licenses.ts';

export { createMemoryRateLimitStore } from './rate-limits.ts';
export { DEFAULT_MEMORY_CAPS, type MemoryCaps, WORKER_MEMORY_LIMITS } from './caps.ts';

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
  options: { clock?: Clock; maxRateLimitClients?: number; caps?: Partial<MemoryCaps>; votesPerNetwork?: number } = {},
): MemoryStorage {
  const clock = options.clock ?? { now: () => Date.now() };
  const caps: MemoryCaps = { ...DEFAULT_MEMORY_CAPS, ...options.caps };
  const feedback: FeedbackEntry[] = [];
  const downloads: DownloadEvent[] = [];
  const sessions = new Map<string, CheckoutSession>();
  /** The ids of the sessions each owner opened, for openCheckouts; retired ones leave with their session. */
  const owned = new Map<string, Set<string>>();
  const ownerOf = new Map<string, string>();
  const licenses = new Map<string, LicenseKeys>();
  /** The update window each session's keys were sold with, beside the keys. */
  const windows = new Map<string, KeyWindows>();
  const secrets = new Map<string, string>();
  /** The ids of pending sessions, for openCheckoutTotals. */
  const pending = new Set<string>();
  let feedbackBytes = 0;
  let lastSweep = -Infinity;
  /** When the first unpaid session is dropped, as last found (at most once a second while full). */
  const retirement = { at: null as number | null, foundAt: -Infinity, size: -1 };
  /** The feedback budget's counts of its current UTC day: per client (keyed hash) and in total. */
  const ledger = new DayLedger();
  const roadmap = createMemoryRoadmap(caps, options.votesPerNetwork);
  const outbox = createMemoryOutbox();
  const keys = createMemoryLicenses(licenses, windows);
  // The roster of the stores a change writes: the change's faces and the storage's are made from it.
  const changed: MemoryStores = {
    releases: createMemoryReleaseStore(),
    features: roadmap.features,
    inbox: createMemoryInbox(feedback),
    orders: createMemoryOrders(sessions, licenses, windows),
    outbox,
    audit: createMemoryAuditStore(),
    mail: createMemoryMail(),
    links: createMemoryLinks(feedback),
    shipping: createMemoryShipping(),
    checkouts: keys,
    updateFiles: createMemoryUpdateFiles(),
  };
  /** The outbox addFeedback writes its event to: outside any change, never undone. */
  const events = outbox();
  const licenseKeys = keys();

  /** Drops retired sessions: once a minute, or once a second while the cap is reached. */
  const retire = (now: number): void => {
    if (now - lastSweep < (sessions.size < caps.checkoutSessions ? SWEEP_EVERY_MS : FULL_SWEEP_EVERY_MS)) return;
    lastSweep = now;
    for (const [id, session] of sessions) {
      if (!isRetired(session, now)) continue;
      sessions.delete(id);
      pending.delete(id);
      const owner = ownerOf.get(id);
      if (owner === undefined) continue;
      ownerOf.delete(id);
      const ids = owned.get(owner)!;
      ids.delete(id);
      if (ids.size === 0) owned.delete(owner);
    }
  };

  /** When retention drops the first unpaid session: past its grace, and past the next sweep while full. */
  const firstRetirement = (now: number): number | null => {
    if (now - retirement.foundAt < FULL_SWEEP_EVERY_MS && retirement.size === sessions.size) return retirement.at;
    let at: number | null = null;
    for (const session of sessions.values()) {
      if (session.state === 'processing' || session.state === 'paid') continue;
      const retires = session.expiresAt + UNPAID_SESSION_GRACE_MS + FULL_SWEEP_EVERY_MS;
      if (at === null || retires < at) at = retires;
    }
    Object.assign(retirement, { at, foundAt: now, size: sessions.size });
    return at;
  };

  return {
    ...facesOf(changed),
    feedback,
    downloads,
    rateLimits: createMemoryRateLimitStore(clock, options.maxRateLimitClients),
    usage: createMemoryUsageStore(),
    installs: createMemoryInstallStore(),
    change: createMemoryChange(changed),

    /** Memory always answers while the process runs. */
    async ping() {},

    intake: {
      async addFeedback(entry, budget) {
        const size = feedbackSize(entry);
        const refusal = budget ? ledger.take(budget) : null;
        if (refusal) return refusal;
        try {
          checkRoom(caps, 'feedbackBytes', feedbackBytes, size, KEPT_UNTIL_RESTART);
        } catch (error) {
          if (budget) ledger.giveBack(budget);
          throw error;
        }
        feedback.push({ ...entry });
        feedbackBytes += size;
        // Synchronous in effect: the memory outbox writes before its first await. The event is drafted only
        // for a listener (its date is a measurable part of a submission's cost).
        if (events.wants('feedback.received')) void events.enqueue(feedbackReceived(entry, feedback.length), entry.receivedAt);
        return null;
      },
      async recordDownload(event) {
        checkRoom(caps, 'downloads', downloads.length);
        downloads.push({ ...event });
      },
    },

    roadmap: { syncRoadmap: roadmap.syncRoadmap, listRoadmap: roadmap.listRoadmap, toggleVote: roadmap.toggleVote },

    checkouts: {
      async createCheckout(session, owner) {
        if (sessions.has(session.id)) throw new Error(`checkout session ${session.id} exists already`);
        const now = clock.now();
        retire(now);
        if (sessions.size >= caps.checkoutSessions) checkRoom(caps, 'checkoutSessions', sessions.size, 1, untilRetirement(firstRetirement(now), now));
        sessions.set(session.id, { ...session });
        if (session.state === 'pending') pending.add(session.id);
        if (owner === undefined) return;
        ownerOf.set(session.id, owner);
        let ids = owned.get(owner);
        if (!ids) owned.set(owner, ids = new Set());
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
      async openCheckoutTotals(now, limit) {
        let open = 0;
        let earliestExpiry: number | null = null;
        for (const id of pending) {
          const { expiresAt } = sessions.get(id)!;
          if (expiresAt <= now) continue;
          open++;
          if (earliestExpiry === null || expiresAt < earliestExpiry) earliestExpiry = expiresAt;
        }
        return { open: Math.min(open, limit), earliestExpiry };
      },
      async getCheckout(id) {
        const session = sessions.get(id);
        return session ? { ...session } : null;
      },
      async advanceCheckout(id, state: CheckoutState) {
        const session = sessions.get(id);
        if (!session) return null;
        session.state = nextCheckoutState(session.state, state);
        if (session.state !== 'pending') pending.delete(id);
        return { ...session };
      },
      saveLicenses: licenseKeys.saveLicenses,
      getLicenses: licenseKeys.getLicenses,
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
