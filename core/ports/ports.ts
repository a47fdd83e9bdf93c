/**
 * The ports of the core: what it needs from the world, declared here and implemented in adapters/.
 *
 * @module
 */
import type { CoreRequest, CoreResponse } from '../http/http.ts';
import type { BudgetRefusal, CheckoutSession, CheckoutSku, CheckoutState, DownloadEvent, FeedbackBudget, FeedbackEntry, OpenCheckoutTotals, LicenseKeys, MaybePromise, RateLimitStore, RoadmapFeature, RoadmapFeatureView, SavedLicenses, VoteResult } from './port-types.ts';
import type { AnswerSigner } from './port-types.ts';
import type { AuditStore, FeatureStore, FeedbackInbox, OrderStore, ReleaseStore, RoadmapSyncReport, UsageStore } from './store-ports.ts';
import type { Pricing } from '../schemas/responses.ts';
import type { Emit, OutboxStore } from './events.ts';
import type { MailStore } from './mail.ts';

export * from './port-types.ts';
export type * from './store-ports.ts';

/** How many votes of one IPv6 /48 a feature's vote_count counts at most, unless a storage is told otherwise. */
export const DEFAULT_VOTES_PER_NETWORK = 8;

/**
 * What one toggle adds to a feature's vote_count: ±1, or 0 when its IPv6 /48 (`network`, null for IPv4)
 * holds `held` votes of the feature already and the cap is reached (the rule of migration 14's SQL toggle).
 */
export function voteWeight(voted: boolean, network: string | null, held: number, votesPerNetwork: number): 1 | 0 | -1 {
  if (network === null) return voted ? 1 : -1;
  if (voted) return held < votesPerNetwork ? 1 : 0;
  return held <= votesPerNetwork ? -1 : 0;
}

/** Everything the core keeps. Every write is atomic on its own. */
export interface Storage {
  /**
   * Stores one submission. With a budget, only when the budget admits it against the day's counts
   * (core/budgets/budgets.ts `refusalOf`, judged and counted atomically with the insert): null when stored, the
   * refusal otherwise. Without one, always stored.
   */
  addFeedback(entry: FeedbackEntry, budget?: FeedbackBudget): Promise<BudgetRefusal | null>;
  recordDownload(event: DownloadEvent): Promise<void>;

  /**
   * Applies the config file's roadmap (docs/operating.md): a feature it adds or changes since it was last
   * applied is written, one it no longer lists is hidden, and every other feature keeps what the operator
   * API made of it. Votes stay.
   */
  syncRoadmap(features: readonly RoadmapFeature[]): Promise<RoadmapSyncReport>;
  /** The visible features in id order, with `voted` for this voter. */
  listRoadmap(voterId: string): Promise<RoadmapFeatureView[]>;
  /**
   * Flips this voter's vote atomically; null when the feature does not exist or is hidden. `network` is
   * the keyed hash of the voter's IPv6 /48 (null for IPv4): a feature's vote_count counts at most the
   * storage's votes-per-network (DEFAULT_VOTES_PER_NETWORK) votes of one network.
   */
  toggleVote(featureId: number, voterId: string, network?: string | null): Promise<VoteResult | null>;

  /** Stores a new session; `owner` is the keyed hash of the client that opened it (never an address). */
  createCheckout(session: CheckoutSession, owner?: string): Promise<void>;
  /**
   * The expiry times, earliest first, of the sessions `owner` opened that are still pending and not
   * expired at `now`; at most `limit` of them.
   */
  openCheckouts(owner: string, now: number, limit: number): Promise<number[]>;
  /** The sessions of all owners still pending and not expired at `now`: how many (at most `limit`), the earliest expiry. */
  openCheckoutTotals(now: number, limit: number): Promise<OpenCheckoutTotals>;
  getCheckout(id: string): Promise<CheckoutSession | null>;
  /**
   * Moves a session to a new state unless it is already final (paid, expired, failed), and never from
   * processing back to pending. Returns the session as it is afterwards, or null when it does not exist.
   */
  advanceCheckout(id: string, state: CheckoutState): Promise<CheckoutSession | null>;
  /**
   * Stores the keys of a session unless some were stored before (first write wins): answers the stored
   * keys, and `stored: true` only to the call whose keys they are (racing issuers may sign identical keys).
   * `emit` is written with the keys, by that call only (order.paid).
   */
  saveLicenses(sessionId: string, keys: LicenseKeys, emit?: Emit<SavedLicenses>): Promise<SavedLicenses>;
  getLicenses(sessionId: string): Promise<LicenseKeys | null>;

  /** A named secret kept with the data: the stored one, or `create()` stored on first use (first write wins). */
  secret(name: string, create: () => MaybePromise<string>): Promise<string>;

  readonly rateLimits: RateLimitStore;
  /** The desktop releases GET /version and GET /download serve (core/releases/release-view.ts). */
  readonly releases: ReleaseStore;
  /** Every change made through the operator API (core/operator). */
  readonly audit: AuditStore;
  /** The stored feedback as the operator reads and marks it (core/operator/inbox.ts). */
  readonly inbox: FeedbackInbox;
  /** The roadmap as the operator edits it (core/operator/roadmap.ts). */
  readonly features: FeatureStore;
  /** Downloads and update checks by day (core/budgets/usage.ts). */
  readonly usage: UsageStore;
  /** Outbound events and their deliveries (core/webhooks); addFeedback writes feedback.received itself. */
  readonly outbox: OutboxStore;
  /** The paid sessions with their buyer, keys and standing (core/operator/orders.ts). */
  readonly orders: OrderStore;
  /** Messages to buyers and their sending (core/mail); written with their cause like events. */
  readonly mail: MailStore;
  /**
   * Answers a trivial query (readiness): resolves when the storage answers, throws when it cannot. The
   * app calls it at most once a second, whatever the probe traffic.
   */
  ping(): Promise<void>;
  close?(): Promise<void>;
}

export * from './gateway-port.ts';

/** Signs license keys. */
export interface LicenseIssuer {
  /** `simulated`: the session was "paid" in the payment simulator; its key must never verify as a license. */
  issue(claims: { sessionId: string; sku: CheckoutSku; product: 'standard' | 'plus'; issuedAt: number; simulated: boolean }): Promise<string>;
  /** The same key as an RFC 9421 signer of update answers (core/releases/answer-signature.ts); absent: answers go unsigned. */
  readonly signer?: AnswerSigner;
}

/** Where the current desktop version comes from (the product's version file). */
export interface VersionSource {
  current(): MaybePromise<string>;
}

/**
 * Where the offer of GET /api/v1/pricing comes from: the config file's by default, or the payment
 * provider's current prices.
 */
export interface OfferSource {
  /**
   * The offer now, from memory. It is called on every GET pricing, so it answers at once and never
   * waits for I/O (a source that reads a provider refreshes in the background). It returns the same
   * object while the offer is unchanged: the core serializes the offer again only when the object
   * changes.
   */
  current(): Pricing;
}

/** What the app counts, for metrics. */
export type AppEvent =
  | 'rate_limited'
  | 'storage_error'
  | 'checkout_created'
  | 'license_issued'
  | 'feedback_stored'
  | 'vote_toggled';

/**
 * Watches the app (metrics, the access log). Called synchronously on the request path: an observer must
 * not throw and must not wait.
 */
export interface Observer {
  /**
   * One request answered, once its answer is final (headers included, `x-request-id` among them).
   *
   * @param request The request; `requestId` is set.
   * @param response The answer as it will be written.
   * @param route The path template that matched (e.g. `/api/v1/pricing`), or null when none did.
   * @param seconds How long the app took, from taking the request to its answer.
   */
  answered?(request: CoreRequest, response: CoreResponse, route: string | null, seconds: number): void;
  /** Something the app counts happened `count` times. */
  count?(event: AppEvent, count: number): void;
}
