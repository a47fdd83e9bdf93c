/**
 * The storage port on SQL: every query of the Postgres and PGlite adapters, over a driver-neutral client.
 *
 * @module
 */
import type { SyncHmacSha256 } from '../../core/keyed-hash.ts';
import type { Clock, Logger, Storage } from '../../core/ports.ts';
import type { ExportSource } from '../export/source.ts';
import { advanceCheckout, createCheckout, getCheckout, getLicenses, saveLicenses } from './checkout.ts';
import type { SqlClient } from './client.ts';
import { sqlExportSource } from './export.ts';
import { migrate, type MigrationReport } from './migrate.ts';
import type { BatchOptions } from './rate-limits.ts';
import { createSharedRateLimitStore, type SharedRateLimitState, type SharedRateLimitStore } from './shared-rate-limits.ts';
import { addFeedback, recordDownload, secret } from './records.ts';
import { runRetention, scheduleRetention, type RetentionReport } from './retention.ts';
import { createVoteToggle, listRoadmap, syncRoadmap } from './roadmap.ts';

/** Storage on SQL, with the export and the clean-up. */
export interface SqlStorage extends Storage, ExportSource {
  readonly client: SqlClient;
  readonly rateLimits: SharedRateLimitStore;
  /** Runs one retention pass now. */
  runRetention(): Promise<RetentionReport>;
  /** Stops the background work and closes the client. */
  close(): Promise<void>;
}

export interface SqlStorageOptions {
  /** Rate-limit batching settings. */
  rateLimit?: BatchOptions;
  /** A synchronous HMAC-SHA-256 for the rate-limit keys (node:crypto's); Web Crypto when absent. */
  hmacSha256?: SyncHmacSha256;
  /** The clock of the rate limit's local counters during a database outage; the system clock when absent. */
  clock?: Clock;
  /** Where the rate limit's switches to local counters and back are logged. */
  logger?: Logger;
  /** The rate limit's key hash and local counters, shared by the storages of one process (a Worker's requests). */
  rateLimitState?: SharedRateLimitState;
  /** When given, retention runs in the background every `intervalMs` (60 s by default). */
  retention?: { logger: Logger; intervalMs?: number };
}

/**
 * Creates the storage over a migrated database (see migrate.ts).
 *
 * @param client The database.
 * @param options Batching and background retention.
 */
export function createSqlStorage(client: SqlClient, options: SqlStorageOptions = {}): SqlStorage {
  // PGlite has no autovacuum: retention vacuums what it deleted from.
  const retention = { vacuum: client.driver === 'pglite' };
  const background = options.retention;
  const stopRetention = background
    ? scheduleRetention(client, background.logger, {
        ...retention,
        ...(background.intervalMs === undefined ? {} : { intervalMs: background.intervalMs }),
      })
    : () => {};
  return {
    client,
    rateLimits: createSharedRateLimitStore(client, {
      ...(options.rateLimit ? { batch: options.rateLimit } : {}),
      ...(options.hmacSha256 ? { hmacSha256: options.hmacSha256 } : {}),
      ...(options.clock ? { clock: options.clock } : {}),
      ...(options.logger ? { logger: options.logger } : {}),
      ...(options.rateLimitState ? { state: options.rateLimitState } : {}),
    }),
    ...sqlExportSource(client),
    addFeedback: (entry) => addFeedback(client, entry),
    recordDownload: (event) => recordDownload(client, event),
    syncRoadmap: (features) => syncRoadmap(client, features),
    listRoadmap: (voterId) => listRoadmap(client, voterId),
    toggleVote: createVoteToggle(client),
    createCheckout: (session) => createCheckout(client, session),
    getCheckout: (id) => getCheckout(client, id),
    advanceCheckout: (id, state) => advanceCheckout(client, id, state),
    saveLicenses: (sessionId, keys) => saveLicenses(client, sessionId, keys),
    getLicenses: (sessionId) => getLicenses(client, sessionId),
    secret: (name, create) => secret(client, name, create),
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
