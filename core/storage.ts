/**
 * The storage face of the package, `converter-site-api/storage`: everything an implementer of `Storage`
 * needs (the port and its sub-stores, the records they carry, what a change reports with itself) and the
 * rules every storage applies the same way (vote weights, checkout states, order standing, budgets). Run
 * `converter-site-api/storage-conformance` against an implementation (docs/storage.md).
 *
 * @module
 */

// The port: public sub-stores (public-stores.ts), the stores a change writes (the roster, change.ts
// `ChangedStores`: each whole in a change, its reads and named outside writes on `Storage`), the rate limiter.
export type { Storage } from './ports/ports.ts';
export type { ChangedStoreName, ChangedStores, ChangeRecord, ChangeStore, LockedTable, OutsideStores, StorageChange, WholeStores } from './ports/change.ts';
export { recordChange } from './ports/change.ts';
export type { CheckoutStore, IntakeStore, RoadmapVotes } from './ports/public-stores.ts';
export type {
  AuditFilter,
  AuditReads,
  AuditRow,
  AuditStore,
  FeatureChange,
  FeatureFields,
  FeatureReads,
  FeatureStore,
  FeedbackCount,
  FeedbackInbox,
  HandledBatch,
  HandledChange,
  InboxEntry,
  InboxFilter,
  InboxReads,
  MergeOutcome,
  OrderFilter,
  PaidPeriod,
  RoadmapSyncReport,
  StoredFeature,
  UnmergeOutcome,
  VersionFeedbackCount,
} from './ports/store-ports.ts';
export type { NewRelease, RampPlan, Release, ReleaseReads, ReleaseStore } from './ports/release-store.ts';
export type { ReachedEveryone, ShippingReads, ShippingRecords, ShippingStore } from './ports/shipping-store.ts';
export type { UpdateFile, UpdateFileReads, UpdateFileRole, UpdateFileStore, UpdateFileVersions } from './ports/update-files.ts';
export { UPDATE_FILE_ROLES } from './ports/update-files.ts';
export type { FeedbackLinkState, FeedbackLinkStore, LinkedRequest, LinkReads } from './ports/link-store.ts';
export type { KeptPaymentEvent, Order, OrderCount, OrderReads, OrderStore, PaymentRecords } from './ports/order-store.ts';
export type { BugReporter, InstallSighting, ReporterCount, UsageCount, UsageKind, UsageStore } from './ports/usage-store.ts';
export type { InstallCount, InstallPing, InstallStore } from './ports/install-store.ts';
export type {
  AttemptOutcome,
  DeletedEndpoint,
  DeliveredType,
  Delivery,
  DeliveryFilter,
  DeliveryState,
  DeliveryWork,
  DueDelivery,
  EndpointFormat,
  EndpointShare,
  EventDraft,
  EventType,
  FailedReplay,
  NewEndpoint,
  OutboxReads,
  OutboxStore,
  WebhookEndpoint,
} from './ports/events.ts';
export { DELIVERED_TYPES, EVENT_TYPES, eventBody, TEST_EVENT_TYPE } from './ports/events.ts';
export type {
  ClaimedResendRequest,
  MailAttempt,
  MailCounts,
  MailDraft,
  MailKind,
  MailReads,
  MailState,
  MailStore,
  MailWork,
  ResendRequest,
  StoredMail,
} from './ports/mail.ts';
export { MAIL_KINDS } from './ports/mail.ts';
export type {
  AuditEntry,
  BudgetLimits,
  BudgetRefusal,
  CheckoutChannel,
  CheckoutSession,
  CheckoutSku,
  CheckoutState,
  Clock,
  DownloadEvent,
  FeedbackBudget,
  FeedbackEntry,
  FeedbackType,
  KeyWindows,
  LicenseKeys,
  MaybePromise,
  OpenCheckoutTotals,
  RateLimitHit,
  RateLimitStore,
  RoadmapFeature,
  RoadmapFeatureView,
  SavedLicenses,
  VoteResult,
} from './ports/port-types.ts';
export type { PaymentFlag, Purchase } from './ports/gateway-port.ts';

// The rules a storage applies as the memory and SQL storages do.
export { DEFAULT_VOTES_PER_NETWORK, LIFETIME_KEYS, voteWeight } from './ports/ports.ts';
export { isFinal, isRetired, nextCheckoutState, UNPAID_SESSION_GRACE_MS } from './ports/checkout-state.ts';
export {
  type DisputeStates,
  GOOD_STANDING,
  isRevoked,
  type OrderOverride,
  type OrderStanding,
  providerRevokes,
  revocationCause,
  withPaymentEvent,
  withPaymentFlag,
} from './ports/order-state.ts';
export { DAY_MS, dayOf, feedbackBudgetBytes, refusalOf } from './budgets/budgets.ts';
/** What a published release is before anything changes it: the fields a `NewRelease` leaves out. */
export { publishedRelease } from './ports/release-store.ts';
/** The feedback.received event `addFeedback` writes with the entry it stores (its id is the inbox id). */
export { feedbackReceived } from './webhooks/events.ts';
