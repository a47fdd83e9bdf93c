/**
 * A release's ramp plan (docs/releases.md "Ramp plans"): steps of rollout in basis points, one every
 * `everyMs` from `startAt`. The rollout in force is worked out from the plan and the clock whenever it is needed:
 * no timer to miss, the same on every instance. A halted ramp holds the step in force when it halted.
 *
 * @module
 */

import type { RampPlan } from '../ports/store-ports.ts';

export type { RampPlan } from '../ports/store-ports.ts';

/** What the plan needs of a release. */
export interface RampedEntry {
  rolloutBasisPoints: number;
  pulledAt: number | null;
  ramp: RampPlan | null;
  haltedAt: number | null;
}

/** The index of the step in force at `at` (0 before the start, the last one after the end). */
export function stepIndexAt(plan: RampPlan, at: number): number {
  const elapsed = Math.floor((at - plan.startAt) / plan.everyMs);
  return Math.max(0, Math.min(plan.basisPoints.length - 1, elapsed));
}

/** The moment the plan's clock stands at for a release: now, or when it halted. */
const planTime = (release: RampedEntry, now: number): number => (release.haltedAt === null ? now : Math.min(now, release.haltedAt));

/** The index of the step in force at `now` (held while halted), or null without a plan. */
export function stepInForce(release: RampedEntry, now: number): number | null {
  return release.ramp === null ? null : stepIndexAt(release.ramp, planTime(release, now));
}

/** The rollout in force at `now`, in basis points: the plan's step, held while halted; the stored one without a plan. */
export function rolloutInForce(release: RampedEntry, now: number): number {
  const step = stepInForce(release, now);
  return step === null ? release.rolloutBasisPoints : (release.ramp?.basisPoints[step] ?? release.rolloutBasisPoints);
}

/**
 * The step of a live release's plan in force at `now` and not announced yet (`announcedStep`, the last
 * one announced), or null: no plan, pulled, or nothing new. Steps passed unannounced are not announced
 * one by one: the one in force is.
 */
export function unannouncedStep(release: RampedEntry & { announcedStep: number }, now: number): number | null {
  const step = release.pulledAt === null ? stepInForce(release, now) : null;
  return step !== null && step > release.announcedStep ? step : null;
}

/** When the next step begins, or null: no plan, pulled, halted, or at the last step. */
export function nextStepAt(release: RampedEntry, now: number): number | null {
  const { ramp } = release;
  if (ramp === null || release.pulledAt !== null || release.haltedAt !== null) return null;
  const index = stepIndexAt(ramp, now);
  if (index >= ramp.basisPoints.length - 1) return null;
  return ramp.startAt + (index + 1) * ramp.everyMs;
}

/** Whether a release is ramping at `now`: a plan not at its last step, not pulled and not halted. */
export function isRamping(release: RampedEntry, now: number): boolean {
  return nextStepAt(release, now) !== null;
}

/** The releases with the rollout in force as their rollout (the same object when it is the stored one). */
export function inForce<R extends RampedEntry>(releases: readonly R[], now: number): R[] {
  return releases.map((release) => {
    const rollout = rolloutInForce(release, now);
    return rollout === release.rolloutBasisPoints ? release : { ...release, rolloutBasisPoints: rollout };
  });
}

/** The earliest next step of any release, or Infinity: until then the rollouts in force do not change. */
export function nextSwitchAt(releases: readonly RampedEntry[], now: number): number {
  let next = Infinity;
  for (const release of releases) next = Math.min(next, nextStepAt(release, now) ?? Infinity);
  return next;
}

/**
 * The plan as it is after a halt from `haltedAt` to `resumedAt`: its later steps are that much later, and
 * the halt rule watches it afresh from `resumedAt` (reports from before no longer count).
 */
export function resumedPlan(plan: RampPlan, haltedAt: number, resumedAt: number): RampPlan {
  return { ...plan, startAt: plan.startAt + Math.max(0, resumedAt - haltedAt), watchFrom: resumedAt };
}
