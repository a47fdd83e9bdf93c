/**
 * Releases in memory: a list, newest first. Lost on restart like everything memory storage keeps.
 *
 * @module
 */
import type { Release, ReleaseStore } from '../../core/releases/release-view.ts';
import type { Emit } from '../../core/ports/events.ts';
import type { Report } from './outbox.ts';

/** Creates an in-process release store; what its changes report is written by `report`. */
export function createMemoryReleaseStore(report: Report): ReleaseStore {
  const releases: Release[] = [];
  const find = (version: string) => releases.find((release) => release.version === version);
  // Copies out, so that a caller cannot change what is stored; the change's event is written with it.
  const changed = async (release: Release | undefined, emit: Emit<Release> | undefined): Promise<Release | null> =>
    release ? report({ ...release }, emit) : null;
  return {
    listReleases: async () => releases.map((release) => ({ ...release })),
    async publishRelease(release, emit, admit) {
      // Checked and stored in one turn of the event loop: no other publish comes between.
      admit?.(releases.map((stored) => ({ ...stored })));
      if (find(release.version)) return false;
      const stored: Release = { sha256: null, size: null, critical: false, ...release, pulledAt: null };
      releases.unshift(stored);
      await report({ ...stored }, emit);
      return true;
    },
    async setRollout(version, rolloutPercent, emit) {
      const release = find(version);
      if (!release || release.pulledAt !== null) return null;
      release.rolloutPercent = rolloutPercent;
      return changed(release, emit);
    },
    async pullRelease(version, at, emit) {
      const release = find(version);
      if (release && release.pulledAt === null) release.pulledAt = at;
      return changed(release, emit);
    },
    async restoreRelease(version, emit) {
      const release = find(version);
      if (release) release.pulledAt = null;
      return changed(release, emit);
    },
  };
}
