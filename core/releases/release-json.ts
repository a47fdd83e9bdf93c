/**
 * A release as the operator API and the release events show it (GET /releases, every release change, the
 * release.* events): times as ISO 8601, the rollout in force, the share of clients it is served to now, its
 * ramp plan and whether the halt rule holds it. Shares are in basis points (`rolloutBasisPoints`), and in
 * percent (`rolloutPercent`, the same share divided by 100: 0.5 for 50 basis points) for callers of before.
 *
 * @module
 */
import * as v from 'valibot';
import type { EventDraft, EventType } from '../ports/events.ts';
import type { Release } from '../ports/release-store.ts';
import { inForce, nextStepAt, rolloutInForce, stepIndexAt } from './ramp-plan.ts';
import { servedShares } from './rollout-rule.ts';
import { releasesOn } from './channels.ts';
import { isoOrNull, IsoTime } from '../schemas/iso-time.ts';

/** Basis points as a percent: 50 is 0.5. */
export const percentOf = (basisPoints: number): number => basisPoints / 100;

const RampViewSchema = v.object({
  basisPoints: v.pipe(v.array(v.number()), v.description('The rollouts of the plan, in order, in basis points (50 is 0.5 %).')),
  steps: v.pipe(v.array(v.number()), v.description('The same rollouts in percent (basisPoints / 100).')),
  everyMinutes: v.pipe(v.number(), v.description('How long each step lasts.')),
  startedAt: v.pipe(IsoTime, v.description('When the first step began (moved on by the time a halt held it).')),
  step: v.pipe(v.number(), v.description('The step in force now, from 1.')),
  nextStepAt: v.pipe(v.nullable(IsoTime), v.description('When the next step begins; null at the last step, halted or pulled.')),
});

export const ReleaseViewSchema = v.object({
  version: v.string(),
  msiUrl: v.string(),
  notesUrl: v.nullable(v.string()),
  channel: v.pipe(
    v.string(),
    v.description(
      'The channel it is on, the most stable it was published or promoted to; a channel lists its own releases and those of every more stable one.',
    ),
  ),
  rolloutBasisPoints: v.pipe(
    v.number(),
    v.description(
      "The rollout in force now, in basis points (0-10000): the ramp plan's step when it has one. A `/version` check reads it rounded down to a whole percent.",
    ),
  ),
  rolloutPercent: v.pipe(v.number(), v.description('The same rollout in percent (rolloutBasisPoints / 100: 0.5 for 50).')),
  servedBasisPoints: v.pipe(
    v.number(),
    v.description(
      "The share of its channel's apps served this release now, in basis points (rule: docs/releases.md); a stable release's is that of stable apps and `/version` checks.",
    ),
  ),
  servedPercent: v.pipe(v.number(), v.description('The same share in percent (servedBasisPoints / 100).')),
  sha256: v.nullable(v.string()),
  size: v.nullable(v.number()),
  critical: v.boolean(),
  publishedAt: IsoTime,
  pulledAt: v.nullable(IsoTime),
  ramp: v.pipe(v.nullable(RampViewSchema), v.description('The ramp plan, or null (none given, or ended by a manual change).')),
  haltedAt: v.pipe(v.nullable(IsoTime), v.description('When the halt rule held the ramp, or null.')),
  haltReason: v.pipe(v.nullable(v.string()), v.description('Why, with the figures it compared, or null.')),
});
export type ReleaseJson = v.InferOutput<typeof ReleaseViewSchema>;

/** A release as the operator API shows it at `now`, served to `served` basis points of the clients. */
export function releaseView(release: Release, served: number, now: number): ReleaseJson {
  const { ramp } = release;
  const halted = ramp !== null && release.haltedAt !== null;
  const rollout = rolloutInForce(release, now);
  return {
    version: release.version,
    msiUrl: release.msiUrl,
    notesUrl: release.notesUrl,
    channel: release.channel,
    rolloutBasisPoints: rollout,
    rolloutPercent: percentOf(rollout),
    servedBasisPoints: served,
    servedPercent: percentOf(served),
    sha256: release.sha256,
    size: release.size,
    critical: release.critical,
    publishedAt: new Date(release.publishedAt).toISOString(),
    pulledAt: isoOrNull(release.pulledAt),
    ramp: ramp === null ? null : {
      basisPoints: ramp.basisPoints,
      steps: ramp.basisPoints.map(percentOf),
      everyMinutes: ramp.everyMs / 60_000,
      startedAt: new Date(ramp.startAt).toISOString(),
      step: stepIndexAt(ramp, halted ? Math.min(now, release.haltedAt!) : now) + 1,
      nextStepAt: isoOrNull(nextStepAt(release, now)),
    },
    haltedAt: halted ? isoOrNull(release.haltedAt) : null,
    haltReason: halted ? release.haltReason : null,
  };
}

/** The event of a release change (its data: the release as the API shows it, its served share included). */
export const releaseEvent = (type: EventType, release: Release, served: number, at: number): EventDraft => ({ type, data: releaseView(release, served, at) });

/** The share a release is served at `now` (basis points) once `release` replaces its stored self (rollouts in force). */
export const servedAfter = (releases: readonly Release[], now: number, channels: readonly string[]) => (release: Release): number =>
  channelShares(releases.map((r) => (r.version === release.version ? release : r)), now, channels, release.channel).get(release.version) ?? 0;

/** Per version, its share (basis points) of the apps of `channel` at `now`: of the releases that channel lists. */
export const channelShares = (releases: readonly Release[], now: number, channels: readonly string[], channel: string): Map<string, number> =>
  servedShares(inForce(releasesOn(channels, channel, releases), now));
