/**
 * No accidental downgrade: a new release must be above every published one (pulled ones included, since
 * clients may have installed them), as Windows Installer compares versions (major.minor.build).
 *
 * @module
 */
import type { Release } from '../releases/release-view.ts';
import { byVersionDescending, compareMsiVersions } from '../releases/rollout-rule.ts';
import { OperatorError } from './errors.ts';

/**
 * Throws when `version` is not above every published release.
 *
 * @param version The version to publish (already a valid MSI ProductVersion).
 * @param releases Every stored release.
 */
export function refuseDowngrade(version: string, releases: readonly Release[]): void {
  if (releases.some((release) => release.version === version)) {
    throw new OperatorError('release_exists', `Version ${version} was published before.`);
  }
  const same = releases.find((release) => compareMsiVersions(release.version, version) === 0);
  if (same) {
    throw new OperatorError(
      'release_same_msi_version',
      `Version ${version} differs from ${same.version} only in the fourth field: Windows Installer compares major.minor.build and would not see it as an upgrade.`,
    );
  }
  const highest = [...releases].sort(byVersionDescending)[0];
  if (highest && compareMsiVersions(version, highest.version) < 0) {
    throw new OperatorError(
      'release_not_higher',
      `Version ${version} is lower than ${highest.version}, the highest published${highest.pulledAt === null ? '' : ' (pulled)'}: the clients it reached would be downgraded.`,
    );
  }
}
