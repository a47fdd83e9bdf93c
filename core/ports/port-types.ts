/**
 * The records the ports carry and the small ports everything else builds on (Clock, Logger), with no
 * import of their own: every other port file imports from here, and nothing here imports back.
 * Re-exported by ports.ts.
 *
 * @module
 */

export type { MaybePromise } from '../http/maybe.ts';
export { CHECKOUT_CHANNELS, CHECKOUT_SKUS, type CheckoutChannel, type CheckoutSku, FEEDBACK_TYPES, type FeedbackType } from '../schemas/catalogue.ts';
import type { CheckoutChannel, CheckoutSku, FeedbackType } from '../schemas/catalogue.ts';
import type { MaybePromise } from '../http/maybe.ts';

/** Where time comes from: milliseconds since the epoch. Tests inject a manual one. */
export interface Clock {
  now(): number;
}

/** Server-side log lines; never sent to clients. */
export interface Logger {
  /** Detail for debugging; dropped unless the operator asks for it. Optional for older loggers. */
  debug?(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** One accepted feedback submission as stored. */
export interface FeedbackEntry {
  type: FeedbackType;
  description: string;
  email: string | null;
  appVersion: string | null;
  rating: number | null;
  receivedAt: number;
}

/**
 * The day's feedback budget of the client that sends an entry (core/budgets/budgets.ts): the storage stores the
 * entry only when `refusalOf` admits it against the day's committed counts, and counts it then.
 */
export interface FeedbackBudget extends BudgetLimits {
  /**
   * The client's key (an IPv4 address or an IPv6 /64, as the rate limit counts it). A storage may hold
   * it in memory, as the rate limits do; one that stores counts keeps a keyed hash of it, never the key.
   */
  client: string;
  /** The UTC day, in whole days since the epoch. */
  day: number;
  /** What the entry costs (`feedbackBudgetBytes`). */
  bytes: number;
}

/** One budget as core/budgets/budgets.ts's rule reads it: a limit per client, a total, and the share. */
export interface BudgetLimits {
  perClient: number;
  total: number;
  sharePercent: number;
}

/** Why a budget refused a record, with the counts it was judged by. */
export interface BudgetRefusal {
  /** 'client': the client's own limit; 'total': all clients'; 'share': the client's share of what is left. */
  reason: 'client' | 'total' | 'share';
  /** What the client held before. */
  held: number;
  /** What all clients held before. */
  spent: number;
}

/** The open checkout sessions of all clients: how many (counted up to a limit) and the earliest expiry. */
export interface OpenCheckoutTotals {
  open: number;
  /** When the first of them expires; null when none is open. */
  earliestExpiry: number | null;
}

/** One installer redirect as stored (for download counts). */
export interface DownloadEvent {
  at: number;
  source: string | null;
  platform: 'windows' | 'other';
  forced: boolean;
}

/** A roadmap feature as the operator's content defines it. */
export interface RoadmapFeature {
  id: number;
  title: string;
  description: string;
  category: string;
  visible: boolean;
  release_version: string | null;
}

/** A visible feature with its votes, as seen by one voter. */
export interface RoadmapFeatureView {
  id: number;
  title: string;
  description: string;
  category: string;
  vote_count: number;
  voted: boolean;
  release_version: string | null;
}

/** The outcome of a vote toggle. */
export interface VoteResult {
  voted: boolean;
  vote_count: number;
}

/** Checkout session states: pending -> processing -> paid, or -> expired / failed. The last three are final. */
export type CheckoutState = 'pending' | 'processing' | 'paid' | 'expired' | 'failed';

/** A hosted checkout session as stored. */
export interface CheckoutSession {
  id: string;
  sku: CheckoutSku;
  channel: CheckoutChannel | null;
  url: string;
  state: CheckoutState;
  createdAt: number;
  expiresAt: number;
}

/** The license keys issued for one paid session. */
export interface LicenseKeys {
  standard: string | null;
  plus: string | null;
}

/**
 * The update window each of a session's keys was sold with (issue 56): whole days of updates from the key's
 * issue day, by product; null: lifetime (and for keys issued before windows were kept, and a product the
 * session has no key of).
 */
export interface KeyWindows {
  standard: number | null;
  plus: number | null;
}

/** Every key lifetime: what a key saved without windows, or issued before they were kept, is sold with. */
export const LIFETIME_KEYS: Readonly<KeyWindows> = Object.freeze({ standard: null, plus: null });

/** The keys a session has after a save, and whether that save stored them. */
export interface SavedLicenses {
  keys: LicenseKeys;
  stored: boolean;
}

/** The result of counting one request against a client's quota. */
export interface RateLimitHit {
  /** Requests counted in the current window, this one included. */
  count: number;
  /** Milliseconds until the window resets, measured on the store's own clock. */
  resetMs: number;
}

/** Fixed-window request counters, one per client key. */
export interface RateLimitStore {
  /**
   * Counts one hit of `key` in its window. `limit` is the policy's quota: a store may answer a client it
   * knows to be past it from what it holds, without asking anyone else. A window starts at a key's first
   * hit and keeps its end: each hit in it answers its own count (1, 2, ...; concurrent hits too) and the
   * time left (`resetMs`, at most `windowMs`); after it ends, the next hit counts 1 in a full window.
   */
  hit(key: string, windowMs: number, limit: number): MaybePromise<RateLimitHit>;
}

/** Signs the base of an RFC 9421 answer signature (core/releases/answer-signature.ts) with the license key. */
export interface AnswerSigner {
  readonly keyId: string;
  sign(data: Uint8Array): Promise<Uint8Array>;
}

/** One entry of the audit trail: every change made through the operator API. */
export interface AuditEntry {
  at: number;
  /** What was done, e.g. "release.published". */
  action: string;
  /** What it was done to, e.g. "2.5.0 at 10%". */
  target: string;
  /** The X-Request-Id of the request that made it, to find its log lines. */
  requestId: string;
  /**
   * The operator who made it (the name of their token, core/operator/named-tokens.ts); null for a change no
   * operator made (a refund or dispute the payment provider reported, the halt rule's halt), and for entries
   * written before names were recorded (migration 27).
   */
  actor: string | null;
}
