/**
 * Ramp steps announced (docs/releases.md "Ramp plans"): the percent in force follows the plan and the clock
 * with nothing written when a step begins, so something has to notice that a step was reached. After each
 * read of the releases (release-view.ts), each live release whose step in force is past its
 * last announced one gets that step marked announced, with a release.rolled_out event and a release.rollout
 * audit row by no operator (the system), in one conditional update: once per step, whichever instance
 * reads first.
 *
 * @module
 */
import type { Clock, Logger } from '../ports/port-types.ts';
import type { Release } from '../ports/release-store.ts';
import { type CommittedChanges, recordChange } from '../ports/change.ts';
import { unannouncedStep } from './ramp-plan.ts';
import { percentOf, releaseEvent, servedAfter } from './release-json.ts';

/** What an announcement needs: the changes it marks the step in (one each), the clock, the log. */
export interface RampAnnouncementPorts {
  changes: Pick<CommittedChanges, 'change'>;
  clock: Clock;
  logger: Logger;
  /** The release channels, the most stable first: a step's event gives the share of its channel's apps. */
  channels: readonly string[];
}

/**
 * Creates the check run after each read of the releases: it writes only when a step is due, and never
 * throws (a failed write is logged, and tried again at the next read).
 */
export function createRampAnnouncements({ changes, clock, logger, channels }: RampAnnouncementPorts): (releases: readonly Release[]) => Promise<void> {
  return async (releases) => {
    const now = clock.now();
    for (const release of releases) {
      const step = unannouncedStep(release, now);
      if (step === null || release.ramp === null) continue;
      const { ramp } = release;
      const requestId = crypto.randomUUID();
      const target = `${release.version} at ${percentOf(ramp.basisPoints[step] ?? 0)}% (ramp step ${step + 1} of ${ramp.basisPoints.length})`;
      const announce = changes.change(async (tx) => {
        const announced = await tx.releases.announceStep(release.version, step, ramp);
        if (!announced) return false;
        const event = releaseEvent('release.rolled_out', announced, servedAfter(releases, now, channels)(announced), now);
        await recordChange(tx, { at: now, event, audit: { at: now, action: 'release.rollout', target, requestId, actor: null } });
        return true;
      });
      try {
        if (await announce) logger.info('release ramp step', { action: 'release.rollout', target, requestId, actor: null });
      } catch (error) {
        logger.error('could not announce a ramp step; trying again at the next read', { version: release.version, error: String(error) });
      }
    }
  };
}
