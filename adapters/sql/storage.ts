/**
 * The storage port on SQL: every query of the Postgres and PGlite adapters, over a driver-neutral client.
 *
 * @module
 */
import type { Logger, Storage } from '../../core/ports.ts';
import type { ExportSource } from '../export/source.ts';
import { advanceCheckout, createCheckout, getCheckout, getLicenses, saveLicenses } from './checkout.ts';
import type { SqlClient } from './client.ts';
import { sqlExportSource } from './export.ts';
import { migrate, type MigrationReport } from './migrate.ts';
import { createSqlRateLimitStore, type BatchOptions, type SqlRateLimitStore } from './rate-limits.ts';
import { addFeedback, recordDownload, secret } from './records.ts';
import { runRetention, scheduleRetention, type RetentionReport } from './retention.ts';
import { createVoteToggle, listRoadmap, syncRoadmap } from './roadmap.ts';

/** Storage on SQL, with the export and the clean-up. */
export interface SqlStorage extends Storage, ExportSource {
  readonly client: SqlClient;
  readonly rateLimits: SqlRateLimitStore;
  /** Runs one retention pass now. */
  runRetention(): Promise<RetentionReport>;
  /** Stops the background work and closes the client. */
  close(): Promise<void>;
}

export interface SqlStorageOptions {
  /** Rate-limit batching settings. */
  rateLimit?: BatchOptions;
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
  const stopRetention = options.retention
    ? scheduleRetention(client, options.retention.logger, options.retention.intervalMs)
    : () => {};
  return {
    client,
    rateLimits: createSqlRateLimitStore(client, options.rateLimit),
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
    // A round trip that reads nothing: the readiness probe's question, at most once a second.
    ping: async () => void (await client.query('select 1')),
    runRetention: () => runRetention(client),
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
