/**
 * The ports of the core: what it needs from the world, declared here and implemented in adapters/.
 *
 * @module
 */
import type { CoreRequest, CoreResponse } from '../http/http.ts';
import type { CheckoutSku, MaybePromise, RateLimitStore } from './port-types.ts';
import type { AnswerSigner } from './port-types.ts';
import type { UsageStore } from './store-ports.ts';
import type { InstallStore } from './install-store.ts';
import type { IntakeStore, RoadmapVotes } from './public-stores.ts';
import type { Pricing } from '../schemas/responses.ts';
import type { ChangeStore, OutsideStores } from './change.ts';

export * from './port-types.ts';
export type * from './store-ports.ts';
export type * from './public-stores.ts';
export type * from './install-store.ts';
export type { ChangedStoreName, ChangedStores, ChangeRecord, ChangeStore, LockedTable, OutsideStores, StorageChange, WholeStores } from './change.ts';

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

/**
 * Everything the core keeps, by concern: the public API's stores (public-stores.ts), the stores a change
 * writes (change.ts `ChangedStores`: the releases, the roadmap as the operator edits it, the inbox, the
 * orders, the outbox, the audit trail, the mail, the links, the shipping records, the checkouts), the
 * usage counts, the rate limiter, and a few members of its own. Every write is atomic on its own; a change
 * that reads, checks and writes several things, with its event, audit entry and mail, is one unit of work
 * (`change`, core/ports/change.ts). Outside a change, the stores a change writes are read-only but for the
 * writes made outside one by type (`OutsideStores`): an operator's write exists only in a change.
 */
export interface Storage extends ChangeStore, OutsideStores {
  /** Feedback and downloads as the public API records them (core/operations/feedback.ts, download.ts). */
  readonly intake: IntakeStore;
  /** The public roadmap and its votes (core/operations/roadmap.ts); the operator edits it in a change (`features`). */
  readonly roadmap: RoadmapVotes;
  /** A named secret kept with the data: the stored one, or `create()` stored on first use (first write wins). */
  secret(name: string, create: () => MaybePromise<string>): Promise<string>;

  readonly rateLimits: RateLimitStore;
  /** Downloads and update checks by day, install sightings and bug reporters (core/budgets/usage.ts): the usage batcher's writes. */
  readonly usage: UsageStore;
  /** Installs of apps on the update files by install id, and their bug reporters (POST /installs). */
  readonly installs: InstallStore;
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
  | 'unhandled'
  | 'checkout_created'
  | 'license_issued'
  | 'feedback_stored'
  | 'vote_toggled'
  /** A metered request with no client address (core/clients/client-address.ts). */
  | 'client_address_missing'
  /** A signed provider event acknowledged and ignored: a test event on a live key, or the reverse. */
  | 'gateway_event_ignored'
  /** An attempt to purge the update files from the caches failed (core/updates/cache-purges.ts); it is retried. */
  | 'cache_purge_failed'
  /** A purge of the update files failed every attempt and was given up. */
  | 'cache_purge_given_up';

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
