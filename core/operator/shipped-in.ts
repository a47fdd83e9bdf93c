/**
 * What a roadmap feature's release_version may name: a release clients can have. That is a live stored
 * release, the baseline, or a version up to the baseline that was never stored here (shipped before the
 * server kept releases). A pulled release, or a version above the baseline that is not a live release
 * (never published, or a typo), is refused: the site would say "shipped in" a version nobody can install.
 *
 * @module
 */
import { compareMsiVersions } from '../releases/rollout-rule.ts';
import type { OperatorContext } from './context.ts';
import { OperatorError } from './errors.ts';

/** Refuses a release_version no client can have (409 release_not_live); null and absent pass. */
export async function checkShippedIn(context: OperatorContext, version: string | null | undefined): Promise<void> {
  if (version === null || version === undefined) return;
  const [releases, baseline] = await Promise.all([context.storage.releases.listReleases(), context.releases.baseline()]);
  const stored = releases.find((release) => release.version === version);
  if (stored ? stored.pulledAt === null : compareMsiVersions(version, baseline.version) <= 0) return;
  const why = stored ? 'is pulled' : `is not a published release (the baseline is ${baseline.version})`;
  throw new OperatorError('release_not_live', `Version ${version} ${why}: no client can install it.`);
}
