/**
 * The public API's stores, as sub-ports every storage implements (ports.ts's `Storage` extends them):
 * what the website and the desktop app write (feedback, downloads), the roadmap and its votes, and the
 * checkout sessions with their license keys. The back office's stores are in store-ports.ts.
 *
 * @module
 */
import type {
  BudgetRefusal,
  CheckoutSession,
  CheckoutState,
  DownloadEvent,
  FeedbackBudget,
  FeedbackEntry,
  KeyWindows,
  LicenseKeys,
  OpenCheckoutTotals,
  RoadmapFeature,
  RoadmapFeatureView,
  SavedLicenses,
  VoteResult,
} from './port-types.ts';
import type { RoadmapSyncReport } from './store-ports.ts';

/** What the website and the desktop app send that is kept: feedback, and downloads for the numbers. */
export interface IntakeStore {
  /**
   * Stores one submission. With a budget, only when the budget admits it against the day's counts
   * (core/budgets/budgets.ts `refusalOf`, judged and counted atomically with the insert): null when stored, the
   * refusal otherwise. Without one, always stored.
   */
  addFeedback(entry: FeedbackEntry, budget?: FeedbackBudget): Promise<BudgetRefusal | null>;
  recordDownload(event: DownloadEvent): Promise<void>;
}

/** The public roadmap and its votes. */
export interface RoadmapVotes {
  /**
   * Applies the config file's roadmap (docs/operating.md): a feature it adds or changes since it was last
   * applied is written, one it no longer lists is hidden, and every other feature keeps what the operator
   * API made of it. Votes stay. A feature it no longer lists also stops being the config's (`from_config`
   * false: a later file without it does not report it again); listed again, it is applied and is the
   * config's again (`from_config` true). The report's ids are in id order.
   */
  syncRoadmap(features: readonly RoadmapFeature[]): Promise<RoadmapSyncReport>;
  /** The visible features in id order, with `voted` for this voter (merged ones are hidden). */
  listRoadmap(voterId: string): Promise<RoadmapFeatureView[]>;
  /**
   * Flips this voter's vote atomically (a second toggle by the same voter takes the vote back); the vote
   * and the count after it, or null when the feature does not exist or is hidden. `network` is
   * the keyed hash of the voter's IPv6 /48 (null for IPv4): a feature's vote_count counts at most the
   * storage's votes-per-network (DEFAULT_VOTES_PER_NETWORK) votes of one network.
   */
  toggleVote(featureId: number, voterId: string, network?: string | null): Promise<VoteResult | null>;
}

/** Hosted-checkout sessions and the license keys of the paid ones. */
export interface CheckoutStore {
  /**
   * Stores a new session as given; `owner` is the keyed hash of the client that opened it (never an
   * address). Rejects a session whose id is stored already.
   */
  createCheckout(session: CheckoutSession, owner?: string): Promise<void>;
  /**
   * The expiry times, earliest first, of the sessions `owner` opened that are still pending and not
   * expired at `now`; at most `limit` of them.
   */
  openCheckouts(owner: string, now: number, limit: number): Promise<number[]>;
  /** The sessions of all owners still pending and not expired at `now`: how many (at most `limit`), the earliest expiry. */
  openCheckoutTotals(now: number, limit: number): Promise<OpenCheckoutTotals>;
  /** The session as stored, or null for an unknown id. */
  getCheckout(id: string): Promise<CheckoutSession | null>;
  /**
   * Moves a session to a new state unless it is already final (paid, expired, failed), and never from
   * processing back to pending. Returns the session as it is afterwards, or null when it does not exist.
   */
  advanceCheckout(id: string, state: CheckoutState): Promise<CheckoutSession | null>;
  /**
   * Stores the keys of a session unless some were stored before (first write wins): answers the stored
   * keys, and `stored: true` only to the call whose keys they are (racing issuers may sign identical keys;
   * identical keys saved again are `stored: false`). The session need not be stored: the keys of an id no
   * session has are kept the same way. Fulfilment saves them in a unit of work (change.ts), with order.paid
   * and the keys mail when stored. `windows`, the update window each key was sold with (lifetime when left
   * out), is stored with the keys that are stored, and is what `OrderReads.get(...).windows` answers.
   */
  saveLicenses(sessionId: string, keys: LicenseKeys, windows?: KeyWindows): Promise<SavedLicenses>;
  /** The keys stored for a session id, or null when none were saved. */
  getLicenses(sessionId: string): Promise<LicenseKeys | null>;
}
