/**
 * `converter-site-api/updates`: the desktop app's side of the update files (issue 54), for a client
 * written in TypeScript and for the tests of one written in another language: the TUF 1.0 update check
 * over a `fetch(path)` port (`checkForUpdate`), and the rollout rule it chooses by (cohort buckets,
 * basis points in force, the evaluation time), and which releases a license covers (issue 56: its update
 * window, its fallback line, a paid upgrade). docs/vectors/update-files.json holds cases to check any
 * client against.
 *
 * @module
 */
export {
  checkForUpdate,
  CLOCK_SKEW_MS,
  outcomeLine,
  type RefusalReason,
  type TrustedState,
  type UpdateCheckOptions,
  type UpdateCheckResult,
  type UpdateFilesFetch,
} from './tuf/client.ts';
export { basisPointsAt, chooseTarget, cohortBucket, evaluationTime, installIdOk, TIMESTAMP_LIFETIME_MS } from './tuf/cohort.ts';
export type { ReleaseCustom, ReleaseTarget, ScheduleStep } from './tuf/feed.ts';
export {
  issueDayOf,
  latestUpdatesUntil,
  mayInstall,
  type ReleaseVerdict,
  releaseVerdict,
  updatesUntil,
  type UpdateTerms,
  updateTerms,
  type UpdateVerdict,
  type VerdictBasis,
  type WindowRelease,
} from './licensing/update-window.ts';
