/**
 * Releases in memory: a list, newest first. Lost on restart like everything memory storage keeps.
 *
 * @module
 */
import type { AuditEntry, AuditStore } from '../../core/operator/context.ts';
import type { Release, ReleaseStore } from '../../core/releases.ts';
import type { OutboxStore } from '../../core/webhooks/ports.ts';
import { reportTo } from './outbox.ts';

/** Creates an in-process release store; its events go to `outbox`. */
export function createMemoryReleaseStore(outbox: Pick<OutboxStore, 'enqueue'>): ReleaseStore {
  const releases: Release[] = [];
  const report = reportTo(outbox);
  const find = (version: string) => releases.find((release) => release.version === version);
  // Copies out, so that a caller cannot change what is stored.
  const copy = (release: Release | undefined): Release | null => (release ? { ...release } : null);
  return {
    listReleases: async () => releases.map((release) => ({ ...release })),
    async publishRelease(release, emit) {
      if (find(release.version)) return false;
      releases.unshift({ ...release, pulledAt: null });
      await report({ ...release, pulledAt: null }, emit);
      return true;
    },
    async setRollout(version, rolloutPercent) {
      const release = find(version);
      if (release) release.rolloutPercent = rolloutPercent;
      return copy(release);
    },
    async pullRelease(version, at) {
      const release = find(version);
      if (release && release.pulledAt === null) release.pulledAt = at;
      return copy(release);
    },
  };
}

/** The audit trail in memory, newest last; lost on restart like the rest. */
export function createMemoryAuditStore(): AuditStore {
  const entries: AuditEntry[] = [];
  return {
    async record(entry) {
      entries.push({ ...entry });
    },
    list: async (limit) => entries.slice(-limit).reverse().map((entry) => ({ ...entry })),
  };
}
