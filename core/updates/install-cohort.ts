/**
 * Whether an app on the update files could run a release when it reports a bug in it: its install id's
 * cohort bucket for the release's line (core/tuf/cohort.ts, the published rule) is below the basis points
 * of the release's schedule in force, as its target carries them (core/tuf/feed.ts). The server works it
 * out from the release as stored, so a report counts exactly where the app's own rule would have offered it.
 *
 * @module
 */
import type { Release } from '../ports/release-store.ts';
import { basisPointsAt, cohortBucket } from '../tuf/cohort.ts';
import { scheduleOf, versionLine } from '../tuf/feed.ts';

/**
 * Creates the check.
 *
 * @param seedOf The cohort seed (hex) of a major.minor line (publisher.ts `cohortSeeds`).
 * @returns Whether `installId`'s bucket is in `release`'s ramp at `now`.
 */
export function createInstallInRamp(seedOf: (line: string) => string): (release: Release, installId: string, now: number) => Promise<boolean> {
  return async (release, installId, now) => {
    const haltedAt = release.haltedAt === null ? null : new Date(release.haltedAt).toISOString();
    const basisPoints = basisPointsAt({ schedule: scheduleOf(release), haltedAt }, now);
    return basisPoints > 0 && (await cohortBucket(seedOf(versionLine(release.version)), installId)) < basisPoints;
  };
}
