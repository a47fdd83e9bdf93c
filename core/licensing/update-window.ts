/**
 * Which releases a license covers (issue 56), written once for the server's answers and the desktop app:
 * a key sold with an update window of N days covers every release published up to its issue day (00:00
 * UTC) plus N days (`updatesUntil`); the major.minor line of the newest live release it covers is its
 * *fallback line*, whose later bug-fix releases it covers too (JetBrains' perpetual fallback rule); the
 * baseline of the version file is covered by every license (it is no release of the channel, so it is no
 * fallback line). Any other release is a paid upgrade. A key sold with `lifetime` covers every release.
 *
 * The verdict compares release dates with `updatesUntil`, never a clock: a wrong system clock changes
 * nothing. docs/licensing.md "Which releases a key covers" has the rule in C#.
 *
 * @module
 */
import type { LicensePayload } from './license.ts';
import { byVersionDescending, compareMsiVersions } from '../releases/rollout-rule.ts';
import { versionLine } from '../tuf/feed.ts';

const DAY_MS = 86_400_000;

/** What the rule needs of a release: its version and when it was published (ms since the epoch). */
export interface WindowRelease {
  version: string;
  publishedAt: number;
}

/** How a release stands under a license. */
export type UpdateVerdict = 'covered' | 'fallback_bug_fix' | 'paid_upgrade';

/**
 * Why: `lifetime` (the key covers every release), `window` (published on or before `updatesUntil`),
 * `baseline` (the version file's, covered by every license), `fallback_line` (a release of the fallback
 * line published after the window), `after_window` (published after the window, of another line).
 */
export type VerdictBasis = 'lifetime' | 'window' | 'baseline' | 'fallback_line' | 'after_window';

/** A release's verdict and why. */
export interface ReleaseVerdict {
  verdict: UpdateVerdict;
  basis: VerdictBasis;
}

/** What a license (or an installation holding several) covers, worked out once for many releases. */
export interface UpdateTerms {
  /** The last instant (ms since the epoch) a covered release may be published at; null: lifetime. */
  updatesUntil: number | null;
  /** The newest covered live release by version, or null: lifetime, or none covered. */
  newestCovered: string | null;
  /** Its major.minor line, such as "2.6"; null when `newestCovered` is. */
  fallbackLine: string | null;
  /** The baseline's version (the version file), covered by every license; null when the caller has none. */
  baseline: string | null;
}

/**
 * The UTC day a key was issued, `YYYY-MM-DD`: a version-2 key's `issuedOn`, the day of a version-1 key's `iat`.
 *
 * @param payload What `verifyLicenseKey` returned for the key.
 */
export function issueDayOf(payload: LicensePayload): string {
  return payload.v === 2 ? payload.issuedOn : new Date(Math.floor((payload.iat * 1000) / DAY_MS) * DAY_MS).toISOString().slice(0, 10);
}

/**
 * The end of a key's update window: its issue day at 00:00 UTC plus `days` days.
 *
 * @param issuedOn The issue day, `YYYY-MM-DD` (`issueDayOf`).
 * @param days The window the key was sold with, in whole days; null: lifetime.
 * @returns Milliseconds since the epoch, or null for lifetime.
 */
export function updatesUntil(issuedOn: string, days: number | null): number | null {
  if (days === null) return null;
  const day = Date.parse(`${issuedOn}T00:00:00Z`);
  if (!Number.isFinite(day)) throw new RangeError(`not an issue day: ${JSON.stringify(issuedOn)}`);
  return day + days * DAY_MS;
}

/**
 * The window of an installation holding several keys: the latest `updatesUntil`, lifetime (null) when any
 * key is lifetime.
 *
 * @param windows The `updatesUntil` of each key the installation holds (at least one).
 * @throws RangeError for no key: an installation without a key holds no license.
 */
export function latestUpdatesUntil(windows: readonly (number | null)[]): number | null {
  if (windows.length === 0) throw new RangeError('no key: an installation without a license key has no update window');
  let latest = -Infinity;
  for (const until of windows) {
    if (until === null) return null;
    latest = Math.max(latest, until);
  }
  return latest;
}

/**
 * What a window covers among the releases.
 *
 * @param until The window's end (`updatesUntil`, or `latestUpdatesUntil` of an installation's keys); null: lifetime.
 * @param releases The live (not pulled) releases of the app's channel, in any order.
 * @param baseline The baseline's version (the version file), covered by every license; null when unknown
 *   (an app on the update files is never offered it: only stored releases are targets).
 */
export function updateTerms(until: number | null, releases: readonly WindowRelease[], baseline: string | null = null): UpdateTerms {
  if (until === null) return { updatesUntil: null, newestCovered: null, fallbackLine: null, baseline };
  const newest = releases.filter((release) => release.publishedAt <= until).sort(byVersionDescending)[0]?.version ?? null;
  return { updatesUntil: until, newestCovered: newest, fallbackLine: newest === null ? null : versionLine(newest), baseline };
}

/**
 * How one release stands under the terms: covered (lifetime, within the window, or the baseline), a bug
 * fix of the fallback line published after the window, or a paid upgrade.
 *
 * @param release The release (a pulled one too: its verdict is what the window says of it).
 * @param terms `updateTerms` of the license or installation.
 */
export function releaseVerdict(release: WindowRelease, terms: UpdateTerms): ReleaseVerdict {
  if (terms.updatesUntil === null) return { verdict: 'covered', basis: 'lifetime' };
  if (release.publishedAt <= terms.updatesUntil) return { verdict: 'covered', basis: 'window' };
  if (terms.baseline !== null && compareMsiVersions(release.version, terms.baseline) === 0) return { verdict: 'covered', basis: 'baseline' };
  if (terms.fallbackLine !== null && versionLine(release.version) === terms.fallbackLine) return { verdict: 'fallback_bug_fix', basis: 'fallback_line' };
  return { verdict: 'paid_upgrade', basis: 'after_window' };
}

/** Whether the license may install a release: covered, or a bug fix of its fallback line. */
export function mayInstall(verdict: ReleaseVerdict): boolean {
  return verdict.verdict !== 'paid_upgrade';
}
