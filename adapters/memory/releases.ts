/**
 * Releases in memory: a list, newest first. Lost on restart like everything memory storage keeps.
 *
 * @module
 */
import type { Release, ReleaseStore } from '../../core/releases/release-view.ts';
import { publishedRelease, type RampPlan } from '../../core/ports/release-store.ts';
import { keep, type Restorable } from './change.ts';

/** Whether a stored plan is still the one given (not ended, resumed or replaced). */
const samePlan = (stored: RampPlan | null, plan: RampPlan): boolean =>
  stored !== null && stored.startAt === plan.startAt && stored.everyMs === plan.everyMs && stored.steps.join() === plan.steps.join();

/** Creates an in-process release store. */
export function createMemoryReleaseStore(): ReleaseStore & Restorable {
  const releases: Release[] = [];
  const find = (version: string) => releases.find((release) => release.version === version);
  // Copies out, so that a caller cannot change what is stored.
  const copy = (release: Release): Release => ({ ...release, ramp: release.ramp && { ...release.ramp, steps: [...release.ramp.steps] } });
  const changed = async (release: Release | undefined): Promise<Release | null> => (release ? copy(release) : null);
  return {
    snapshot: () => keep(releases),
    listReleases: async () => releases.map(copy),
    async publishRelease(release) {
      if (find(release.version)) return false;
      releases.unshift(copy(publishedRelease(release)));
      return true;
    },
    async setRollout(version, rolloutPercent) {
      const release = find(version);
      if (!release || release.pulledAt !== null) return null;
      Object.assign(release, { rolloutPercent, ramp: null, haltedAt: null, haltReason: null });
      return changed(release);
    },
    async pullRelease(version, at, rolloutPercent) {
      const release = find(version);
      if (release && release.pulledAt === null) release.pulledAt = at;
      if (release && rolloutPercent !== undefined) Object.assign(release, { rolloutPercent, ramp: null });
      return changed(release);
    },
    async restoreRelease(version) {
      const release = find(version);
      if (release) Object.assign(release, { pulledAt: null, haltedAt: null, haltReason: null });
      return changed(release);
    },
    async haltRelease(version, at, reason) {
      const release = find(version);
      if (!release || release.ramp === null || release.pulledAt !== null || release.haltedAt !== null) return null;
      Object.assign(release, { haltedAt: at, haltReason: reason });
      return changed(release);
    },
    async resumeRelease(version, ramp) {
      const release = find(version);
      if (!release || release.haltedAt === null || release.pulledAt !== null) return null;
      Object.assign(release, { ramp: { ...ramp, steps: [...ramp.steps] }, haltedAt: null, haltReason: null });
      return changed(release);
    },
    async announceStep(version, step, ramp) {
      const release = find(version);
      if (!release || release.pulledAt !== null || !samePlan(release.ramp, ramp) || release.announcedStep >= step) return null;
      release.announcedStep = step;
      return changed(release);
    },
  };
}
