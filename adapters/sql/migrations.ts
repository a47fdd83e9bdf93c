/**
 * The versioned schema, shared by the Postgres and PGlite adapters: one file per migration in
 * `migrations/`, named by its number and what it changes. Migrations are append-only: a released one is
 * never edited (test/storage/migrations.test.ts holds each one's SQL to its digest), its number is never
 * reused, and none drops or rewrites a record (version 4 empties the rate-limit counters, which are no
 * records: see there). The schema they build is docs/schema.sql (`npm run schema:snapshot`).
 *
 * @module
 */
import type { Migration } from './migrations/migration.ts';
import { initial } from './migrations/01-initial.ts';
import { batchedVoteToggles } from './migrations/02-batched-vote-toggles.ts';
import { setBasedVoteToggles } from './migrations/03-set-based-vote-toggles.ts';
import { hashedRateLimitKeys } from './migrations/04-hashed-rate-limit-keys.ts';
import { checkoutSessionOwners } from './migrations/05-checkout-session-owners.ts';
import { releases } from './migrations/06-releases.ts';
import { auditTrail } from './migrations/07-audit-trail.ts';
import { feedbackHandled } from './migrations/08-feedback-handled.ts';
import { roadmapAdmin } from './migrations/09-roadmap-admin.ts';
import { outboundEvents } from './migrations/10-outbound-events.ts';
import { storageBudgets } from './migrations/11-storage-budgets.ts';
import { usageCounts } from './migrations/12-usage-counts.ts';
import { orders } from './migrations/13-orders.ts';
import { votesPerNetwork } from './migrations/14-votes-per-network.ts';
import { orderAmounts } from './migrations/15-order-amounts.ts';
import { unusedBudgetFunction } from './migrations/16-unused-budget-function.ts';
import { budgetClientHash } from './migrations/17-budget-client-hash.ts';
import { feedbackByTime } from './migrations/18-feedback-by-time.ts';
import { releaseIntegrity } from './migrations/19-release-integrity.ts';
import { paymentEventsInAnyOrder } from './migrations/20-payment-events-in-any-order.ts';
import { outboundEventRetention } from './migrations/21-outbound-event-retention.ts';
import { licenseKeyLookup } from './migrations/23-license-key-lookup.ts';
import { releaseRamps } from './migrations/24-release-ramps.ts';
import { usageKindsOfInstalledVersions } from './migrations/25-usage-kinds-of-installed-versions.ts';
import { mailOutbox } from './migrations/26-mail-outbox.ts';
import { auditActors } from './migrations/27-audit-actors.ts';
import { secretRotationAndRecordedMerges } from './migrations/29-secret-rotation-and-recorded-merges.ts';
import { distinctInstallsAndBugReporters } from './migrations/30-distinct-installs-and-bug-reporters.ts';
import { resendRequests } from './migrations/31-resend-requests.ts';
import { announcedRampSteps } from './migrations/32-announced-ramp-steps.ts';
import { releasesReachedEveryone } from './migrations/33-releases-reached-everyone.ts';
import { feedbackLinkedToFeatures } from './migrations/34-feedback-linked-to-features.ts';
import { requestersTold } from './migrations/35-requesters-told.ts';
import { mailRetries } from './migrations/36-mail-retries.ts';
import { updateFiles } from './migrations/37-update-files.ts';
import { rolloutBasisPoints } from './migrations/38-rollout-basis-points.ts';
import { releaseChannels } from './migrations/39-release-channels.ts';
import { installsByInstallId } from './migrations/40-installs-by-install-id.ts';
import { updateWindows } from './migrations/41-update-windows.ts';

export type { Migration } from './migrations/migration.ts';

/** Every migration, in order. Append only; a missing number says why it is missing. */
export const MIGRATIONS: readonly Migration[] = [
  initial,
  batchedVoteToggles,
  setBasedVoteToggles,
  hashedRateLimitKeys,
  checkoutSessionOwners,
  releases,
  auditTrail,
  feedbackHandled,
  roadmapAdmin,
  outboundEvents,
  storageBudgets,
  usageCounts,
  orders,
  votesPerNetwork,
  orderAmounts,
  unusedBudgetFunction,
  budgetClientHash,
  feedbackByTime,
  releaseIntegrity,
  paymentEventsInAnyOrder,
  outboundEventRetention,
  // 22: never shipped. The mail outbox was 22 on its branch (issue 35, part A) while 23-25 landed on main;
  // the merge (946df51) renumbered it 26 so that it runs after them on a database that already had them.
  licenseKeyLookup,
  releaseRamps,
  usageKindsOfInstalledVersions,
  mailOutbox,
  auditActors,
  // 28: never shipped. Issue 33's branches were built in parallel, 27 and 29 landing from two of them; the
  // merge that brought 29 (e546be2) records "28 was assigned and not needed": no branch landed a 28.
  secretRotationAndRecordedMerges,
  distinctInstallsAndBugReporters,
  resendRequests,
  announcedRampSteps,
  releasesReachedEveryone,
  feedbackLinkedToFeatures,
  requestersTold,
  mailRetries,
  updateFiles,
  rolloutBasisPoints,
  releaseChannels,
  installsByInstallId,
  updateWindows,
];
