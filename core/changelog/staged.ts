/**
 * The releases an early adopter may run before they reach everyone (issue 55, `GET /changelog?installed=`):
 * on stable (as the changelog is), published, not pulled, offered to some clients but not yet to all
 * (0 < rollout in force < 10000 basis points), and above the newest release live for everyone. A release below that one stopped short of 100 % and was superseded:
 * its items never ship under its version (docs/releases.md "Shipped"), so it is not listed.
 *
 * @module
 */
import type { Release } from '../ports/release-store.ts';
import { rolloutInForce } from '../releases/ramp-plan.ts';
import { ALL_BASIS_POINTS, compareMsiVersions } from '../releases/rollout-rule.ts';
import { STABLE } from '../releases/channels.ts';
import type { ShippedRelease } from '../releases/shipped.ts';

/**
 * The releases not at 100 % yet that an install may run.
 *
 * @param releases Every stored release.
 * @param shipped Those live for everyone at `now` (shippedReleases).
 */
export function stagedReleases(releases: readonly Release[], shipped: readonly ShippedRelease[], now: number): Release[] {
  const floor = shipped.reduce<string | null>(
    (top, { release }) => (top === null || compareMsiVersions(release.version, top) > 0 ? release.version : top),
    null,
  );
  return releases.filter((release) => {
    if (release.channel !== STABLE || release.pulledAt !== null || release.publishedAt > now) return false;
    const rollout = rolloutInForce(release, now);
    return rollout > 0 && rollout < ALL_BASIS_POINTS && (floor === null || compareMsiVersions(release.version, floor) > 0);
  });
}
