/**
 * What a publish may store. No accidental downgrade: a new release must be above every release its channel
 * lists (its own and the more stable channels', pulled ones included, since clients may have installed
 * them), as Windows Installer compares versions (major.minor.build); a version is published once, on any
 * channel, and never twice with one MSI version. A ramp plan climbs: each step above the one before, the first the publish's rollout.
 *
 * @module
 */
import { ApiError } from '../http/errors.ts';
import type { RampPlan, Release } from '../ports/release-store.ts';
import { byVersionDescending, compareMsiVersions } from './rollout-rule.ts';
import { STABLE } from './channels.ts';

/** Why a version may not be published: the operator's error code and its message. */
export interface DowngradeRefusal {
  code: 'release_exists' | 'release_same_msi_version' | 'release_not_higher';
  message: string;
}

/**
 * Why `version` may not be published (it is not above every release its channel lists), or null when it may.
 *
 * @param version The version to publish (already a valid MSI ProductVersion).
 * @param releases Every stored release.
 * @param on Its channel and the releases that channel lists (every stored one without): a stable hotfix may be below a beta.
 * @returns The refusal, or null.
 */
export function downgradeRefusal(version: string, releases: readonly Release[], on?: { channel: string; listed: readonly Release[] }): DowngradeRefusal | null {
  if (releases.some((release) => release.version === version)) {
    return { code: 'release_exists', message: `Version ${version} was published before.` };
  }
  const same = releases.find((release) => compareMsiVersions(release.version, version) === 0);
  if (same) {
    return {
      code: 'release_same_msi_version',
      message:
        `Version ${version} differs from ${same.version} only in the fourth field: Windows Installer compares major.minor.build and would not see it as an upgrade.`,
    };
  }
  const highest = [...(on?.listed ?? releases)].sort(byVersionDescending)[0];
  if (highest && compareMsiVersions(version, highest.version) < 0) {
    return {
      code: 'release_not_higher',
      message: `Version ${version} is lower than ${highest.version}, the highest published${
        on ? ` on ${on.channel}${on.channel === STABLE ? '' : ' or a more stable channel'}` : ''
      }${highest.pulledAt === null ? '' : ' (pulled)'}: the clients it reached would be downgraded.`,
    };
  }
  return null;
}

/** A rollout as the operator gives it: in basis points or in percent, one of the two (release-fields.ts). */
export interface RolloutInput {
  rolloutBasisPoints?: number | undefined;
  rolloutPercent?: number | undefined;
}

/** Percent (to two decimals, already checked) as basis points. */
const basisPointsOfPercent = (percent: number) => Math.round(percent * 100);

const ROLLOUT_REQUIRED = 'Field "rolloutBasisPoints" (0-10000, 50 is 0.5 %) or "rolloutPercent" (0-100, to two decimals) is required.';

/**
 * The rollout given, in basis points, or null when none is.
 *
 * @returns The basis points or null; a 400 `invalid_request` when both are given.
 */
export function givenRollout(input: RolloutInput): number | null {
  const { rolloutBasisPoints, rolloutPercent } = input;
  if (rolloutBasisPoints !== undefined && rolloutPercent !== undefined) {
    throw new ApiError('invalid_request', 'Give "rolloutBasisPoints" or "rolloutPercent", not both: they are the same share in two units.');
  }
  if (rolloutBasisPoints !== undefined) return rolloutBasisPoints;
  return rolloutPercent === undefined ? null : basisPointsOfPercent(rolloutPercent);
}

/** The rollout given, in basis points; a 400 `invalid_request` when neither or both are given. */
export function rolloutOf(input: RolloutInput): number {
  const rollout = givenRollout(input);
  if (rollout === null) throw new ApiError('invalid_request', ROLLOUT_REQUIRED);
  return rollout;
}

/** A ramp plan as a publish gives it (core/operator/release-fields.ts `RampInputSchema`, already validated). */
export interface RampInput {
  basisPoints?: readonly number[] | undefined;
  steps?: readonly number[] | undefined;
  everyMinutes: number;
  haltMinClients?: number | undefined;
  haltMinNetworks?: number | undefined;
}

/** The steps of a ramp in basis points; a 400 when neither or both units are given. */
function rampSteps(input: RampInput): number[] {
  if (input.basisPoints !== undefined && input.steps !== undefined) {
    throw new ApiError('invalid_request', 'Give "ramp.basisPoints" or "ramp.steps", not both: they are the same rollouts in two units.');
  }
  if (input.basisPoints !== undefined) return [...input.basisPoints];
  if (input.steps !== undefined) return input.steps.map(basisPointsOfPercent);
  throw new ApiError('invalid_request', 'Field "ramp.basisPoints" (e.g. [50, 500, 10000]) or "ramp.steps" (percents, e.g. [0.5, 5, 100]) is required.');
}

/**
 * The rollout and stored plan of a publish: the plan's steps each above the one before, the first one the
 * rollout (which may be left out with a plan: it is then the first step).
 *
 * @param given The rollout and plan the publish gives.
 * @param startAt When the first step begins (the publish).
 * @returns The rollout in basis points and the plan to store, or null; a 400 `invalid_request` when the
 *   steps do not climb from the rollout.
 */
export function publishedRollout(given: RolloutInput & { ramp: RampInput | null }, startAt: number): { rollout: number; ramp: RampPlan | null } {
  const input = given.ramp;
  if (input === null) return { rollout: rolloutOf(given), ramp: null };
  const { everyMinutes, haltMinClients, haltMinNetworks } = input;
  const steps = rampSteps(input);
  const rollout = givenRollout(given) ?? steps[0]!;
  if (steps.some((step, i) => i > 0 && step <= steps[i - 1]!)) {
    throw new ApiError(
      'invalid_request',
      "The ramp's steps must each be above the one before, e.g. [1, 5, 25, 100] percent or [100, 500, 2500, 10000] basis points.",
    );
  }
  if (steps[0] !== rollout) {
    throw new ApiError(
      'invalid_request',
      `The rollout (${rollout} basis points) must be the ramp's first step (${String(steps[0])} basis points) when a ramp is given.`,
    );
  }
  const plan: RampPlan = { basisPoints: steps, everyMs: everyMinutes * 60_000, startAt };
  if (haltMinClients === undefined && haltMinNetworks === undefined) return { rollout, ramp: plan };
  const halt = {
    ...(haltMinClients === undefined ? {} : { minClients: haltMinClients }),
    ...(haltMinNetworks === undefined ? {} : { minNetworks: haltMinNetworks }),
  };
  return { rollout, ramp: { ...plan, halt } };
}
