/**
 * What "shipped" means (docs/releases.md "Shipped"): a release is live for everyone when it is not pulled
 * and its percent in force is 100 (ramp-plan.ts); a roadmap item is shipped when its `release_version`
 * names such a release. A staged release ships nothing yet, a pull un-ships, a restore ships again. The
 * moment a release reached everyone is recorded once (ShippingRecords, first write wins) by the first
 * instance to see it: the view's reads (after each change through this instance, and at most every
 * 500 ms while clients ask for updates), the changelog's reads and the mail loop's sweep.
 *
 * @module
 */
import type { Clock, Logger } from '../ports/port-types.ts';
import type { Release } from '../ports/release-store.ts';
import type { ShippingReads, ShippingRecords } from '../ports/shipping-store.ts';
import { type RampedEntry, rolloutInForce } from './ramp-plan.ts';
import { ALL_BASIS_POINTS } from './rollout-rule.ts';
import { STABLE } from './channels.ts';

/**
 * Whether a release is served to every client at `now`: on `stable` (a beta release reaches the beta
 * apps only, so it has shipped to nobody who reads the changelog or asked for a feature), not pulled, 100 % in force.
 */
export function isLiveForEveryone(release: RampedEntry & { channel: string }, now: number): boolean {
  return release.channel === STABLE && release.pulledAt === null && rolloutInForce(release, now) >= ALL_BASIS_POINTS;
}

/**
 * When a release live for everyone got there, as far as the release itself tells: the start of its plan's
 * first 100 % step, else `now` (a manual widen keeps no time: the first to see it records it).
 */
export function reachedEveryoneAt(release: RampedEntry, now: number): number {
  const plan = release.ramp;
  if (plan === null) return now;
  const step = plan.basisPoints.findIndex((rollout) => rollout >= ALL_BASIS_POINTS);
  return step < 0 ? now : Math.min(now, plan.startAt + step * plan.everyMs);
}

/** A release live for everyone, with when it got there. */
export interface ShippedRelease {
  release: Release;
  reachedAt: number;
}

/**
 * The releases live for everyone at `now`, each with its recorded time; one not recorded yet is recorded
 * now (first write wins, so two instances agree on the time).
 */
export async function shippedReleases(releases: readonly Release[], store: ShippingReads & ShippingRecords, now: number): Promise<ShippedRelease[]> {
  const live = releases.filter((release) => isLiveForEveryone(release, now));
  if (live.length === 0) return [];
  const recorded = new Map((await store.reachedEveryone()).map((entry) => [entry.version, entry.at]));
  const shipped: ShippedRelease[] = [];
  for (const release of live) {
    const known = recorded.get(release.version);
    const reachedAt = known ?? (await store.recordReachedEveryone(release.version, reachedEveryoneAt(release, now)));
    shipped.push({ release, reachedAt });
  }
  return shipped;
}

/**
 * Creates the check run after each read of the release view: records the releases newly live for
 * everyone. It remembers what it recorded, so a read writes only when something new reached everyone,
 * and it never throws (a failed write is logged and tried again at the next read).
 */
export function createShipmentNotes(store: ShippingReads & ShippingRecords, clock: Clock, logger: Logger): (releases: readonly Release[]) => Promise<void> {
  const noted = new Set<string>();
  return async (releases) => {
    const now = clock.now();
    if (releases.every((release) => noted.has(release.version) || !isLiveForEveryone(release, now))) return;
    try {
      for (const { release } of await shippedReleases(releases, store, now)) noted.add(release.version);
    } catch (error) {
      logger.error('could not record a release that reached everyone; trying again at the next read', { error: String(error) });
    }
  };
}
