/**
 * Releases in memory: a list, newest first. Lost on restart like everything memory storage keeps.
 *
 * @module
 */
import type { Release, ReleaseStore } from '../../core/releases/release-view.ts';
import { publishedRelease, type RampPlan } from '../../core/ports/release-store.ts';
import { addRecord, type MemoryFace, patch } from './undo.ts';

/** Whether a stored plan is still the one given (not ended, resumed or replaced). */
const samePlan = (stored: RampPlan | null, plan: RampPlan): boolean =>
  stored !== null && stored.startAt === plan.startAt && stored.everyMs === plan.everyMs && stored.basisPoints.join() === plan.basisPoints.join();

/** Creates an in-process release store; a change's face of it undoes its own writes when the change throws. */
export function createMemoryReleaseStore(): MemoryFace<ReleaseStore> {
  const releases: Release[] = [];
  const find = (version: string) => releases.find((release) => release.version === version);
  // Copies out, so that a caller cannot change what is stored.
  const copy = (release: Release): Release => ({ ...release, ramp: release.ramp && { ...release.ramp, basisPoints: [...release.ramp.basisPoints] } });
  const changed = async (release: Release | undefined): Promise<Release | null> => (release ? copy(release) : null);
  return (undo) => ({
    listReleases: async () => releases.map(copy),
    async publishRelease(release) {
      if (find(release.version)) return false;
      addRecord(releases, copy(publishedRelease(release)), 'first', undo);
      return true;
    },
    async setRollout(version, rolloutBasisPoints, ramp) {
      const release = find(version);
      if (!release || release.pulledAt !== null) return null;
      const plan = ramp === undefined ? { ramp: null } : { ramp: { ...ramp, basisPoints: [...ramp.basisPoints] }, announcedStep: 0 };
      patch(release, { rolloutBasisPoints, ...plan, haltedAt: null, haltReason: null }, undo);
      return changed(release);
    },
    async promoteRelease(version, channel) {
      const release = find(version);
      if (!release || release.pulledAt !== null) return null;
      patch(release, { channel }, undo);
      return changed(release);
    },
    async pullRelease(version, at, rolloutBasisPoints) {
      const release = find(version);
      if (release && release.pulledAt === null) patch(release, { pulledAt: at }, undo);
      if (release && rolloutBasisPoints !== undefined) patch(release, { rolloutBasisPoints, ramp: null }, undo);
      return changed(release);
    },
    async restoreRelease(version) {
      const release = find(version);
      if (release) patch(release, { pulledAt: null, haltedAt: null, haltReason: null }, undo);
      return changed(release);
    },
    async haltRelease(version, at, reason) {
      const release = find(version);
      if (!release || release.ramp === null || release.pulledAt !== null || release.haltedAt !== null) return null;
      patch(release, { haltedAt: at, haltReason: reason }, undo);
      return changed(release);
    },
    async resumeRelease(version, ramp) {
      const release = find(version);
      if (!release || release.haltedAt === null || release.pulledAt !== null) return null;
      patch(release, { ramp: { ...ramp, basisPoints: [...ramp.basisPoints] }, haltedAt: null, haltReason: null }, undo);
      return changed(release);
    },
    async announceStep(version, step, ramp) {
      const release = find(version);
      if (!release || release.pulledAt !== null || !samePlan(release.ramp, ramp) || release.announcedStep >= step) return null;
      patch(release, { announcedStep: step }, undo);
      return changed(release);
    },
  });
}
