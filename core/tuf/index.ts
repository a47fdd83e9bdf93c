/**
 * The signed update files of a channel (issue 54): TUF 1.0 metadata any stock TUF client verifies, whose
 * targets carry the rollout schedule the app decides on.
 *
 * @module
 */
export { canonicalJson } from './canonical-json.ts';
export { createTufSigner, keyIdOf, sha256Hex, type TufKey, tufKeyOf, type TufSigner, verifyTufSignature } from './keys.ts';
export {
  buildRoot,
  buildSnapshot,
  buildTargets,
  buildTimestamp,
  type Envelope,
  envelopeText,
  expiresMs,
  expiresText,
  type MetaEntry,
  metaEntryOf,
  type RoleKeys,
  type RootSigned,
  type Signature,
  type SignedTerms,
  signEnvelope,
  type SnapshotSigned,
  SPEC_VERSION,
  type TargetFile,
  type TargetsSigned,
  type TimestampSigned,
} from './metadata.ts';
export {
  type FeedOptions,
  feedTargets,
  plainSummary,
  type ReleaseCustom,
  type ReleaseTarget,
  scheduleOf,
  type ScheduleStep,
  SUMMARY_MAX,
  versionLine,
} from './feed.ts';
export { checkNewRoot, type RootCheck, verifyEnvelope } from './verify.ts';
export { basisPointsAt, chooseTarget, chooseTargetByBucket, cohortBucket, evaluationTime, installIdOk, TIMESTAMP_LIFETIME_MS } from './cohort.ts';
