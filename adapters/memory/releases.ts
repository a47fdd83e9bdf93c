/**
 * Releases in memory: a list, newest first. Lost on restart like everything memory storage keeps.
 *
 * @module
 */
import type { Release, ReleaseStore } from '../../core/releases/release-view.ts';
import type { RampPlan } from '../../core/ports/release-store.ts';
import type { Emit } from '../../core/ports/events.ts';
import type { Report } from './outbox.ts';

/** Whether a stored plan is still the one given (not ended, resumed or replaced). */
const samePlan = (stored: RampPlan | null, plan: RampPlan): boolean =>
  stored !== null && stored.startAt === plan.startAt && stored.everyMs === plan.everyMs && stored.steps.join() === plan.steps.join();

/** Creates an in-process release store; what its changes report is written by `report`. */
export function createMemoryReleaseStore(report: Report): ReleaseStore {
  const releases: Release[] = [];
  const find = (version: string) => releases.find((release) => release.version === version);
  // Copies out, so that a caller cannot change what is stored; the change's event is written with it.
  const copy = (release: Release): Release => ({ ...release, ramp: release.ramp && { ...release.ramp, steps: [...release.ramp.steps] } });
  const changed = async (release: Release | undefined, emit: Emit<Release> | undefined): Promise<Release | null> =>
    release ? report(copy(release), emit) : null;
  return {
    listReleases: async () => releases.map(copy),
    async publishRelease(release, emit, admit) {
      // Checked and stored in one turn of the event loop: no other publish comes between.
      admit?.(releases.map(copy));
      if (find(release.version)) return false;
      const stored: Release = { sha256: null, size: null, critical: false, ramp: null, ...release, pulledAt: null, haltedAt: null, haltReason: null, announcedStep: 0 };
      releases.unshift(copy(stored));
      await report(copy(stored), emit);
      return true;
    },
    async setRollout(version, rolloutPercent, emit) {
      const release = find(version);
      if (!release || release.pulledAt !== null) return null;
      Object.assign(release, { rolloutPercent, ramp: null, haltedAt: null, haltReason: null });
      return changed(release, emit);
    },
    async pullRelease(version, at, emit, rolloutPercent) {
      const release = find(version);
      if (release && release.pulledAt === null) release.pulledAt = at;
      if (release && rolloutPercent !== undefined) Object.assign(release, { rolloutPercent, ramp: null });
      return changed(release, emit);
    },
    async restoreRelease(version, emit) {
      const release = find(version);
      if (release) Object.assign(release, { pulledAt: null, haltedAt: null, haltReason: null });
      return changed(release, emit);
    },
    async haltRelease(version, at, reason, emit) {
      const release = find(version);
      if (!release || release.ramp === null || release.pulledAt !== null || release.haltedAt !== null) return null;
      Object.assign(release, { haltedAt: at, haltReason: reason });
      return changed(release, emit);
    },
    async resumeRelease(version, ramp, emit) {
      const release = find(version);
      if (!release || release.haltedAt === null || release.pulledAt !== null) return null;
      Object.assign(release, { ramp: { ...ramp, steps: [...ramp.steps] }, haltedAt: null, haltReason: null });
      return changed(release, emit);
    },
    async announceStep(version, step, ramp, emit) {
      const release = find(version);
      if (!release || release.pulledAt !== null || !samePlan(release.ramp, ramp) || release.announcedStep >= step) return null;
      release.announcedStep = step;
      return changed(release, emit);
    },
  };
}
