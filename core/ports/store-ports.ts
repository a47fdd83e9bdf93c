/**
 * The stores of the back office that every storage has: releases (core/releases/release-view.ts), the audit trail and
 * the feedback inbox and the orders (core/operator). A change that reports an event takes an `emit`
 * (core/webhooks), and the store writes the event with the change. Declared here, below ports.ts and the modules that use them, so that
 * no import runs back up.
 *
 * @module
 */
import type { PaymentFlag, Purchase } from './gateway-port.ts';
import type { OrderOverride, OrderStanding } from './order-state.ts';
import type { AuditEntry, CheckoutSession, FeedbackEntry, FeedbackType, LicenseKeys, RoadmapFeature, SavedLicenses } from './port-types.ts';
import type { Emit } from './events.ts';
import type { HandledBatch, InboxFilter, OrderFilter, PaidPeriod } from './store-queries.ts';

export type { HandledBatch, InboxFilter, OrderFilter, PaidPeriod } from './store-queries.ts';

export type { AuditEntry } from './port-types.ts';

/** A ramp plan (core/releases/ramp-plan.ts): the percents in order, how long each lasts, when the first began. */
export interface RampPlan {
  steps: number[];
  everyMs: number;
  startAt: number;
}

/** One published desktop release. */
export interface Release {
  version: string;
  msiUrl: string;
  notesUrl: string | null;
  /** Whole percent of clients (0-100) offered this release or a newer one (core/releases/rollout-rule.ts). */
  rolloutPercent: number;
  publishedAt: number;
  /** When it was pulled, or null: a pulled release is not served until it is restored. */
  pulledAt: number | null;
  /** The MSI's SHA-256, 64 lower-case hex digits, or null when not given (releases stored before it was kept). */
  sha256: string | null;
  /** The MSI's size in bytes, or null when not given. */
  size: number | null;
  /** Whether the app should install it without asking (travels in a signed header). */
  critical: boolean;
  /**
   * Its ramp plan, or null: with one, the percent in force comes from the plan and the clock
   * (core/releases/ramp-plan.ts) and `rolloutPercent` is its first step. A manual change ends it.
   */
  ramp: RampPlan | null;
  /** When the halt rule held its ramp (core/releases/halt-rule.ts), or null. */
  haltedAt: number | null;
  /** Why, with the figures, or null. */
  haltReason: string | null;
}

/** A release to publish: the integrity fields, the critical flag and the plan may be left out (null, false, null). */
export type NewRelease = Omit<Release, 'pulledAt' | 'sha256' | 'size' | 'critical' | 'ramp' | 'haltedAt' | 'haltReason'> &
  Partial<Pick<Release, 'sha256' | 'size' | 'critical' | 'ramp'>>;

/** Where releases are kept (every storage has one). */
export interface ReleaseStore {
  /** Every release, newest first. */
  listReleases(): Promise<Release[]>;
  /**
   * Stores a new release; false when that version exists already (pulled or not). `admit` is given every
   * stored release first, while no other publish can store one (a table lock on SQL), and refuses the
   * release by throwing: then nothing is stored.
   */
  publishRelease(release: NewRelease, emit?: Emit<Release>, admit?: (stored: readonly Release[]) => void): Promise<boolean>;
  /**
   * Sets a live release's percentage and ends its plan (and halt); the release afterwards, or null when
   * there is no live one of that version.
   */
  setRollout(version: string, rolloutPercent: number, emit?: Emit<Release>): Promise<Release | null>;
  /**
   * Pulls a release (idempotent: a second pull keeps the first time); the release afterwards, or null when
   * there is none. With `rolloutPercent` (the percent in force), its plan ends at that percent.
   */
  pullRelease(version: string, at: number, emit?: Emit<Release>, rolloutPercent?: number): Promise<Release | null>;
  /** Serves a pulled release again (idempotent) and clears a halt; the release afterwards, or null when there is none. */
  restoreRelease(version: string, emit?: Emit<Release>): Promise<Release | null>;
  /**
   * Holds a live release's ramp at `at` with its reason; the release afterwards, or null when it has no
   * plan, is pulled or is halted already (so two instances deciding at once halt it once).
   */
  haltRelease(version: string, at: number, reason: string, emit?: Emit<Release>): Promise<Release | null>;
  /** Resumes a halted ramp with its plan moved on (ramp-plan.ts resumedPlan); the release afterwards, or null when not halted. */
  resumeRelease(version: string, ramp: RampPlan, emit?: Emit<Release>): Promise<Release | null>;
}


/** A stored audit entry, with its id (the order it was written in: the paging cursor). */
export interface AuditRow extends AuditEntry {
  id: number;
}

/** Which audit entries to list: a page of at most `limit`, below `before`, matching every filter given. */
export interface AuditFilter {
  limit: number;
  /** Only entries whose id is below this (the `next` of the page before). */
  before?: number | undefined;
  /** Only this operator's entries (exact name). */
  actor?: string | undefined;
  /** Only actions that start with this, e.g. "release." (case-sensitive). */
  action?: string | undefined;
  /** Only targets that contain this text (case-sensitive). */
  target?: string | undefined;
}

/** Where the audit trail is kept (every storage has one). */
export interface AuditStore {
  record(entry: AuditEntry): Promise<void>;
  /** The latest entries that match the filter, newest first. */
  list(filter: AuditFilter): Promise<AuditRow[]>;
}

/** One stored submission, with its id and when it was marked handled. */
export interface InboxEntry extends FeedbackEntry {
  id: number;
  handledAt: number | null;
}

/** How many submissions of one type and rating arrived on one UTC day. */
export interface FeedbackCount {
  day: number;
  type: FeedbackType;
  rating: number | null;
  count: number;
}

/** Reviews or bug reports of one UTC day by the app version they name (a known version, `other` or `none`). */
export interface VersionFeedbackCount {
  day: number;
  /** The appVersion when it is one of the versions asked about; `other` for any other, `none` when absent. */
  version: string;
  type: 'review' | 'bug_report';
  count: number;
  /** The sum of the ratings given, and how many gave one. */
  ratingSum: number;
  rated: number;
}

/** Where the inbox reads and marks (every storage has one). */
export interface FeedbackInbox {
  /** Reviews and bug reports by UTC day and app version, of the days from `fromDay` to `toDay`; versions not in `versions` as `other`. */
  countByVersion(fromDay: number, toDay: number, versions: readonly string[]): Promise<VersionFeedbackCount[]>;
  /** Submissions by UTC day, type and rating, of the days from `fromDay` to `toDay`, both included. */
  countByDay(fromDay: number, toDay: number): Promise<FeedbackCount[]>;
  /** Entries matching the filter, newest (highest id) first, at most `limit`. */
  list(filter: InboxFilter): Promise<InboxEntry[]>;
  /**
   * Marks an entry handled (at `at`, kept when it was handled already) or not.
   *
   * @returns The entry afterwards and whether its state changed, or null when there is no such entry.
   */
  setHandled(id: number, handled: boolean, at: number, emit?: Emit<HandledChange>): Promise<HandledChange | null>;
  /**
   * Marks the listed entries handled at `at`, all in one write; an entry handled already keeps its time
   * and is not counted as marked. `emit` hears of the whole batch once (one audit row for all).
   */
  markHandled(ids: readonly number[], at: number, emit?: Emit<HandledBatch>): Promise<HandledBatch>;
}

/** What marking an entry did: the entry afterwards, and whether it was in the other state before. */
export interface HandledChange {
  entry: InboxEntry;
  changed: boolean;
}

/** A roadmap feature as the operator sees it: hidden ones too, with its votes and where it was merged. */
export interface StoredFeature extends RoadmapFeature {
  vote_count: number;
  /** The feature its votes moved to, when it was merged as a duplicate (it is hidden then). */
  merged_into: number | null;
  /** Whether the config file's roadmap defines it (a later config edit to it is applied at start). */
  from_config: boolean;
}

/** What the operator may change of a feature. */
export type FeatureFields = Omit<RoadmapFeature, 'id'>;

/** Some of a feature's fields; those absent (or undefined) stay as they are. */
export type FeatureChange = { [K in keyof FeatureFields]?: FeatureFields[K] | undefined };

/** What applying the config file's roadmap changed (see Storage.syncRoadmap). */
export interface RoadmapSyncReport {
  /** Features the config file added or changed since it was last applied. */
  applied: number[];
  /** Features the config file no longer lists, hidden. */
  hidden: number[];
  /** No feature came from the config file before: this was the seed of an empty roadmap. */
  first: boolean;
}

export type MergeOutcome =
  | { kind: 'merged'; from: StoredFeature; into: StoredFeature; moved: number }
  | { kind: 'not_found'; id: number }
  | { kind: 'already_merged'; from: StoredFeature }
  | { kind: 'hidden_target'; into: StoredFeature };

export type UnmergeOutcome =
  | { kind: 'unmerged'; shown: StoredFeature; from: StoredFeature; restored: number }
  | { kind: 'not_found'; id: number }
  | { kind: 'not_merged'; feature: StoredFeature }
  | { kind: 'not_recorded'; feature: StoredFeature }
  | { kind: 'target_merged'; into: StoredFeature };

/** Where the operator edits the roadmap (every storage has one); GET /api/v1/roadmap reflects each change at once. */
export interface FeatureStore {
  /** Every feature, hidden ones too, in id order. */
  list(): Promise<StoredFeature[]>;
  /** Adds a feature with the next free id (above every existing one). */
  create(fields: FeatureFields, emit?: Emit<StoredFeature>): Promise<StoredFeature>;
  /** Changes some fields; the feature afterwards, or null when there is none. Showing it clears merged_into. */
  update(id: number, fields: FeatureChange, emit?: Emit<StoredFeature>): Promise<StoredFeature | null>;
  /**
   * Merges duplicate `from` into `into`, in one transaction: `from`'s votes move to `into` (a voter who
   * voted for both keeps one vote), `into`'s count is exact, and `from` is hidden with merged_into set.
   */
  merge(from: number, into: number, emit?: Emit<MergeOutcome & { kind: 'merged' }>): Promise<MergeOutcome>;
  /**
   * Undoes the merge of `id`, in one transaction: it is shown again, and each vote it had when merged
   * goes back to it from the feature it was merged into, if that voter still votes there (a moved vote
   * leaves that feature; a voter who had voted for both keeps both). Only a merge that recorded its votes
   * (every merge since migration 29) can be undone, and not while the target is merged itself.
   */
  unmerge(id: number, emit?: Emit<UnmergeOutcome & { kind: 'unmerged' }>): Promise<UnmergeOutcome>;
}

/** A checkout session as the back office sees it: the buyer, the payment, the keys and their standing. */
export interface Order {
  session: CheckoutSession;
  /** What the provider said of the buyer and the payment at fulfilment (all null before it). */
  purchase: Purchase;
  /** When this server fulfilled it (ms since the epoch), or null: not yet, or before orders were kept. */
  paidAt: number | null;
  keys: LicenseKeys | null;
  standing: OrderStanding;
}

/** Paid orders of one day, product and currency, and what they paid together (null: amounts unknown). */
export interface OrderCount {
  day: number;
  product: string;
  currency: string | null;
  count: number;
  /** The sum of the amounts as a decimal ("113.00"), or null when none is known. */
  revenue: string | null;
  /** Of those orders, the ones refunded in full. */
  refunded: number;
  /** Of those orders, the ones disputed (won, open or lost). */
  disputed: number;
  /**
   * What the orders kept: the sum of the amounts of those a refund or a dispute not won does not revoke
   * (core/ports/order-state.ts providerRevokes), in the revenue's decimals ("0.00" when all were); null when
   * no amount is known.
   */
  netRevenue: string | null;
}

/** A refund or dispute kept until its payment is known (OrderStore.keepPaymentEvent); dispute '' when none. */
export interface KeptPaymentEvent {
  flag: PaymentFlag;
  dispute: string;
}

/** Where the orders are kept: columns of the checkout sessions (every storage has one). */
export interface OrderStore {
  /**
   * Keeps what the provider says of a paid session: fills what is not known yet (the first word wins),
   * and the fulfilment time once. No-op for an unknown session.
   */
  recordPurchase(sessionId: string, purchase: Purchase, at: number): Promise<void>;
  /** One order (any stored session), or null. */
  get(sessionId: string): Promise<Order | null>;
  /**
   * Paid orders, newest first (by fulfilment, else creation), at most `limit`; with `session`, that one
   * session whatever its state.
   */
  find(filter: OrderFilter): Promise<Order[]>;
  /**
   * Paid orders of a period, oldest first by fulfilment time, else creation time (orders kept before
   * fulfilment times were: migration 13), then by session id.
   */
  inPeriod(period: PaidPeriod): Promise<Order[]>;
  /** Paid orders by the UTC day this server fulfilled them, product and currency, of the days from `fromDay` to `toDay`. */
  countByDay(fromDay: number, toDay: number): Promise<OrderCount[]>;
  /**
   * The order that holds a license key (its standard or its plus key, as issued: exactly equal), or null.
   * POST /api/v1/licenses/validate reads a key's standing by it; nothing about the key is stored for it.
   */
  ofLicenseKey(key: string): Promise<Order | null>;
  /** The session paid by a provider payment, or null. */
  sessionOfPayment(paymentRef: string): Promise<string | null>;
  /**
   * Applies a provider event to an order's standing atomically (core/ports/order-state.ts withPaymentFlag);
   * the standing before and the order after, or null for an unknown session.
   */
  flag(
    sessionId: string,
    flag: PaymentFlag,
    emit?: Emit<{ before: OrderStanding; order: Order }>,
    dispute?: string,
  ): Promise<{ before: OrderStanding; order: Order } | null>;
  /**
   * Keeps a refund or dispute of a payment no order has yet (it came before the payment was known here),
   * until `takePaymentEvents` hands it to the order that payment pays for. Idempotent.
   */
  keepPaymentEvent(paymentRef: string, event: KeptPaymentEvent, at: number): Promise<void>;
  /** The kept events of a payment, deleted as they are handed over (each to one caller). */
  takePaymentEvents(paymentRef: string): Promise<KeptPaymentEvent[]>;
  /**
   * Stores the operator's revoke or reinstate; the standing before (read under the order's lock, so that
   * of two racing overrides only one sees a change) and the order after, or null for an unknown session.
   */
  override(
    sessionId: string,
    override: OrderOverride,
    reason: string | null,
    at: number,
    emit?: Emit<{ before: OrderStanding; order: Order }>,
  ): Promise<{ before: OrderStanding; order: Order } | null>;
  /**
   * Adds a Plus key to a session's stored keys unless it has one (first write wins); the keys after,
   * or null when the session has no keys stored.
   */
  addPlusKey(sessionId: string, key: string, emit?: Emit<SavedLicenses>): Promise<SavedLicenses | null>;
}

/**
 * Downloads and update checks counted by day (core/budgets/usage.ts); `installed`: update checks by the
 * version their User-Agent names (`release` is that version, `other` or `none`); `bug_report`: bug reports
 * that count for a release (core/releases/halt-rule.ts).
 */
export type UsageKind = 'download' | 'update_check' | 'installed' | 'bug_report';

export interface UsageCount {
  /** UTC day: whole days since 1970-01-01. */
  day: number;
  kind: UsageKind;
  release: string;
  source: string;
  platform: 'windows' | 'other';
  count: number;
}

/** Where the counts are kept (every storage has one). */
export interface UsageStore {
  /** Adds counts to the stored ones (one batch, atomic). */
  add(counts: readonly UsageCount[]): Promise<void>;
  /** Every stored count of the days from `fromDay` to `toDay`, both included. */
  list(fromDay: number, toDay: number): Promise<UsageCount[]>;
}
