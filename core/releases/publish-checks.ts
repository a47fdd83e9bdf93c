/**
 * What a publish may store. No accidental downgrade: a new release must be above every published one
 * (pulled ones included, since clients may have installed them), as Windows Installer compares versions
 * (major.minor.build). A ramp plan climbs: each step above the one before, the first the rollout percent.
 *
 * @module
 */
import { ApiError } from '../http/errors.ts';
import type { RampPlan, Release } from '../ports/release-store.ts';
import { byVersionDescending, compareMsiVersions } from './rollout-rule.ts';

/** Why a version may not be published: the operator's error code and its message. */
export interface DowngradeRefusal {
  code: 'release_exists' | 'release_same_msi_version' | 'release_not_higher';
  message: string;
}

/**
 * Why `version` may not be published (it is not above every published release), or null when it may.
 *
 * @param version The version to publish (already a valid MSI ProductVersion).
 * @param releases Every stored release.
 * @returns The refusal, or null.
 */
export function downgradeRefusal(version: string, releases: readonly Release[]): DowngradeRefusal | null {
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
  const highest = [...releases].sort(byVersionDescending)[0];
  if (highest && compareMsiVersions(version, highest.version) < 0) {
    return {
      code: 'release_not_higher',
      message: `Version ${version} is lower than ${highest.version}, the highest published${
        highest.pulledAt === null ? '' : ' (pulled)'
      }: the clients it reached would be downgraded.`,
    };
  }
  return null;
}

/** A ramp plan as a publish gives it (core/operator/release-fields.ts `RampInputSchema`, already validated). */
export interface RampInput {
  steps: readonly number[];
  everyMinutes: number;
  haltMinClients?: number | undefined;
  haltMinNetworks?: number | undefined;
}

/**
 * The stored plan of a publish: its steps each above the one before, the first one the rollout percent.
 *
 * @param rolloutPercent The percent the publish gives.
 * @param input The plan it gives, or null.
 * @param startAt When the first step begins (the publish).
 * @returns The plan to store, or null; a 400 `invalid_request` when the steps do not climb from the rollout percent.
 */
export function rampOf(rolloutPercent: number, input: RampInput | null, startAt: number): RampPlan | null {
  if (input === null) return null;
  const { steps, everyMinutes, haltMinClients, haltMinNetworks } = input;
  if (steps.some((step, i) => i > 0 && step <= steps[i - 1]!)) {
    throw new ApiError('invalid_request', 'Field "ramp.steps" must list percents each above the one before, e.g. [1, 5, 25, 100].');
  }
  if (steps[0] !== rolloutPercent) {
    throw new ApiError('invalid_request', `Field "rolloutPercent" must be the ramp's first step (${String(steps[0])}) when a ramp is given.`);
  }
  const plan: RampPlan = { steps: [...steps], everyMs: everyMinutes * 60_000, startAt };
  if (haltMinClients === undefined && haltMinNetworks === undefined) return plan;
  return {
    ...plan,
    halt: {
      ...(haltMinClients === undefined ? {} : { minClients: haltMinClients }),
      ...(haltMinNetworks === undefined ? {} : { minNetworks: haltMinNetworks }),
    },
  };
}
