/**
 * The storage port on SQL: every query of the Postgres and PGlite adapters, over a driver-neutral client.
 *
 * @module
 */
import { type Clock, DEFAULT_VOTES_PER_NETWORK, type Logger, type RateLimitStore, type RoadmapFeature, type Storage } from '../../core/ports/ports.ts';
import { createMemoryRateLimitStore } from '../memory/rate-limits.ts';
import type { ExportSource } from '../export/source.ts';
import { advanceCheckout, createCheckout, getCheckout, getLicenses, openCheckouts, openCheckoutTotals, saveLicenses } from './checkout.ts';
import type { SqlClient } from './client.ts';
import { sqlExportSource } from './export.ts';
import { migrate, type MigrationReport } from './migrate.ts';
import type { BatchOptions } from './rate-limits.ts';
import { clientKeyHash, createSharedRateLimitState, createSharedRateLimitStore, type SharedRateLimitState } from './shared-rate-limits.ts';
import { createFeedbackWriter, recordDownload, secret } from './records.ts';
import { createSqlFeatureStore } from './features.ts';
import { createSqlInbox } from './inbox.ts';
import { createSqlOutbox, EndpointsKnown } from './outbox.ts';
import { createSqlUsageStore } from './usage.ts';
import { createSqlInstallStore } from './installs.ts';
import { createSqlOrders } from './orders.ts';
import { createSqlAuditStore } from './audit.ts';
import { createSqlMail } from './mail.ts';
import { createSqlReleaseStore } from './releases.ts';
import { createSqlShipping } from './shipping.ts';
import { createSqlLinks } from './links.ts';
import { createSqlUpdateFiles } from './update-files.ts';
import { type RetentionReport, runRetention, scheduleRetention } from './retention.ts';
import { createRoadmapMirror } from './roadmap-mirror.ts';
import { createRoadmapReader, createVoteToggle, syncRoadmap } from './roadmap.ts';
import { createSqlChange, type SqlStores, storesOver, UNFOLLOWED } from './change.ts';

/** Storage on SQL, with the export and the clean-up. */
export interface SqlStorage extends Storage, ExportSource {
  readonly client: SqlClient;
  /** The shared counters (adapters/sql/shared-rate-limits.ts), or this process's own when `exclusive`. */
  readonly rateLimits: RateLimitStore;
  /** Runs one retention pass now. */
  runRetention(): Promise<RetentionReport>;
  /** Stops the background work and closes the client. */
  close(): Promise<void>;
}

export interface SqlStorageOptions {
  /** Rate-limit batching settings. */
  rateLimit?: BatchOptions;
  /** The clock of the rate limit's local counters during a database outage; the system clock when absent. */
  clock?: Clock;
  /** Where the rate limit's switches to local counters and back are logged. */
  logger?: Logger;
  /** The rate limit's key hash and local counters, shared by the storages of one process (a Worker's requests). */
  rateLimitState?: SharedRateLimitState;
  /** When given, retention runs in the background every `intervalMs` (60 s by default). */
  retention?: { logger: Logger; intervalMs?: number; eventRetentionDays?: number };
  /**
   * The database has no other client (PGlite: one process holds its data directory), so what only
   * this process writes can be kept in its memory, exactly: the rate-limit counters live there (on
   * `clock`, the system clock by default), and the roadmap is read from memory that follows the
   * committed writes (roadmap-mirror.ts). The counters restart with the process, which a 60 s window
   * allows; the roadmap is loaded again from the database.
   */
  exclusive?: { clock?: Clock };
  /** How many votes of one IPv6 /48 a feature's count takes at most (DEFAULT_VOTES_PER_NETWORK). */
  votesPerNetwork?: number;
  /** Throws while writes would be refused (PGlite: the disk reserve); readiness asks it before its ping. */
  checkWritable?: () => void;
}

/**
 * Creates the storage over a migrated database (see migrate.ts).
 *
 * @param client The database.
 * @param options Batching and background retention.
 */
export function createSqlStorage(client: SqlClient, options: SqlStorageOptions = {}): SqlStorage {
  // PGlite has no autovacuum: retention vacuums what it deleted from.
  const background = options.retention;
  const retention = {
    vacuum: client.driver === 'pglite',
    ...(background?.eventRetentionDays === undefined ? {} : { eventRetentionDays: background.eventRetentionDays }),
  };
  const stopRetention = background
    ? scheduleRetention(client, background.logger, {
      ...retention,
      ...(background.intervalMs === undefined ? {} : { intervalMs: background.intervalMs }),
    })
    : () => {};
  // A pool runs a second batch while this process answers the first; PGlite has one connection.
  const batching = { maxInFlight: client.driver === 'postgres' ? 2 : 1 };
  const perNetwork = options.votesPerNetwork ?? DEFAULT_VOTES_PER_NETWORK;
  const roadmap = { syncRoadmap: (features: readonly RoadmapFeature[]) => syncRoadmap(client, features), features: createSqlFeatureStore(client, perNetwork) };
  // The roster of the stores a change writes: the change builds them over its transaction, the storage over the client.
  const changed: SqlStores = {
    releases: createSqlReleaseStore,
    features: (db, touches) => createSqlFeatureStore(db, perNetwork, touches),
    inbox: createSqlInbox,
    orders: createSqlOrders,
    outbox: (db, touches) => createSqlOutbox(db, touches.endpoints),
    audit: createSqlAuditStore,
    mail: createSqlMail,
    links: createSqlLinks,
    shipping: createSqlShipping,
    checkouts: (db) => ({
      createCheckout: (session, owner) => createCheckout(db, session, owner),
      openCheckouts: (owner, now, limit) => openCheckouts(db, owner, now, limit),
      openCheckoutTotals: (now, limit) => openCheckoutTotals(db, now, limit),
      getCheckout: (id) => getCheckout(db, id),
      advanceCheckout: (id, state) => advanceCheckout(db, id, state),
      saveLicenses: (sessionId, keys, windows) => saveLicenses(db, sessionId, keys, windows),
      getLicenses: (sessionId) => getLicenses(db, sessionId),
    }),
    updateFiles: createSqlUpdateFiles,
  };
  const { exclusive } = options;
  const endpoints = exclusive ? new EndpointsKnown(client) : undefined;
  // The shared tables key clients by one keyed hash: the rate limits' and the feedback budgets'.
  const shared = options.rateLimitState ?? createSharedRateLimitState();
  const hashClient = clientKeyHash(client, shared);
  const mirror = exclusive ? createRoadmapMirror(client, roadmap, perNetwork) : null;
  // A change's stores are built again over its transaction, as it uses them (change.ts): closures, no state.
  const change = createSqlChange(client, changed, {
    ...(mirror ? { roadmap: mirror.followChange } : {}),
    ...(endpoints ? { endpointsChanged: () => endpoints.forget() } : {}),
  });
  return {
    ...storesOver(changed, client, endpoints ? { ...UNFOLLOWED, endpoints } : UNFOLLOWED),
    change,
    client,
    rateLimits: exclusive ? createMemoryRateLimitStore(exclusive.clock ?? { now: () => Date.now() }) : createSharedRateLimitStore(client, {
      batch: { ...batching, ...options.rateLimit },
      ...(options.clock ? { clock: options.clock } : {}),
      ...(options.logger ? { logger: options.logger } : {}),
      state: shared,
    }),
    ...sqlExportSource(client),
    intake: {
      addFeedback: exclusive
        ? createFeedbackWriter(client, batching, { exclusive: endpoints! })
        : createFeedbackWriter(client, batching, { hashClient: async (key) => hashClient(key) }),
      recordDownload: (event) => recordDownload(client, event),
    },
    usage: createSqlUsageStore(client),
    installs: createSqlInstallStore(client),
    roadmap: mirror
      ? { syncRoadmap: mirror.syncRoadmap, listRoadmap: mirror.listRoadmap, toggleVote: mirror.toggleVote }
      : { syncRoadmap: roadmap.syncRoadmap, toggleVote: createVoteToggle(client, batching, perNetwork), listRoadmap: createRoadmapReader(client, batching) },
    // PGlite's roadmap is read from memory (roadmap-mirror.ts).
    ...(mirror ? { features: mirror.features } : {}),
    secret: (name, create) => secret(client, name, create),
    // A round trip that reads nothing: the readiness probe's question, at most once a second.
    ping: async () => {
      options.checkWritable?.();
      await client.query('select 1');
    },
    runRetention: () => runRetention(client, retention),
    async close() {
      stopRetention();
      await client.close();
    },
  };
}

/**
 * Migrates a freshly opened client and builds the storage on it; the client is closed again when the
 * migration fails, so a failed start leaves no connection behind.
 *
 * @param client The opened driver client (postgres.js or PGlite).
 * @param options Batching and retention settings.
 * @returns The storage and what the migration did.
 */
export async function openSqlStorage(
  client: SqlClient,
  options: SqlStorageOptions,
): Promise<{ storage: SqlStorage; migration: MigrationReport }> {
  try {
    const migration = await migrate(client);
    return { storage: createSqlStorage(client, options), migration };
  } catch (error) {
    await client.close().catch(() => {});
    throw error;
  }
}
