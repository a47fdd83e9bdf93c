/**
 * Mail: what the core asks of a mail sender (an SMTP adapter), and the durable mail outbox every storage
 * keeps. A message is rendered and written with its cause (same statement or transaction), once per cause
 * key; the mail worker (core/mail/worker.ts) sends it with retries.
 *
 * @module
 */

/** What a message is about. */
export const MAIL_KINDS = ['keys', 'upgrade', 'revoked', 'reinstated', 'resend', 'shipped'] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

/** The kinds whose text the config file may replace (core/mail/texts.ts); a shipped-request mail is written from its own parts. */
export const TEMPLATED_MAIL_KINDS = ['keys', 'upgrade', 'revoked', 'reinstated', 'resend'] as const satisfies readonly MailKind[];
export type TemplatedMailKind = (typeof TEMPLATED_MAIL_KINDS)[number];

/** A piece of a mail's line: text, a strong title, a key as code, or a link. */
export type MailPart = string | { strong: string } | { code: string } | { link: { href: string; text: string } };

/** A paragraph: lines (each its parts) broken by line breaks; `aside` is a footnote (smaller, grey). */
export interface MailParagraph {
  kind: 'paragraph';
  lines: MailPart[][];
  aside?: boolean;
}

export type MailBlock = MailParagraph;

/** A mail's body as data: what an HTML renderer (the `MailHtml` port) turns into the HTML part. */
export interface MailContent {
  subject: string;
  blocks: MailBlock[];
}

/**
 * Renders a mail's HTML part (adapters/mail-html). Without one (`createApp` without `mailHtml`), mails
 * are written with an empty HTML part and sent as text only.
 */
export type MailHtml = (content: MailContent) => string;

/** The HTML part of a mail: rendered, or empty without a renderer. */
export const mailHtmlOf = (html: MailHtml | null, content: MailContent): string => (html ? html(content) : '');

/** A rendered message before it is written to the outbox. */
export interface MailDraft {
  /**
   * What caused it, unique for all time (e.g. `keys:<session>`): a second write with the same cause is
   * ignored, so one cause mails once whatever the retries and races.
   */
  cause: string;
  kind: MailKind;
  /** The order it is about; null for a resend, which may cover several. */
  session: string | null;
  to: string;
  subject: string;
  text: string;
  html: string;
}

export type MailState = 'pending' | 'sent' | 'failed';

/** A message in the outbox, as the operator sees it. */
export interface StoredMail extends MailDraft {
  id: number;
  state: MailState;
  attempts: number;
  createdAt: number;
  nextAttemptAt: number | null;
  lastAttemptAt: number | null;
  lastError: string | null;
  sentAt: number | null;
  /** When the operator last sent it again after it failed (`retryFailed`), or null. */
  retriedAt: number | null;
}

/** What one attempt came to. */
export interface MailAttempt {
  at: number;
  error: string | null;
  sent: boolean;
  /** When to try again, or null: sent, or given up (failed). */
  nextAttemptAt: number | null;
}

/** How many messages of a range of days came to what. */
export interface MailCounts {
  sent: number;
  failed: number;
  pending: number;
}

/**
 * A self-service resend request (POST licenses/resend) as the request path records it: nothing looked up
 * yet. The mail worker's resend step (core/mail/resend-requests.ts) looks up the address's orders later.
 */
export interface ResendRequest {
  /** The cause of the mail it may write (`resend:<uuid>`): one request mails at most once. */
  cause: string;
  /** The address, lower-cased; kept only until the request is completed. */
  email: string;
}

/** A recorded resend request, taken by the resend step. */
export interface ClaimedResendRequest extends ResendRequest {
  id: number;
  requestedAt: number;
  /** Claims before this one (a step that died or failed leaves the request to a later claim). */
  attempts: number;
}

/** What the back office reads of the mail outbox. */
export interface MailReads {
  /** Messages newest first (highest id first): those about one order, or all; only those in `state` when given; at most `limit`. */
  list(filter: { session?: string | undefined; state?: MailState | undefined; limit: number }): Promise<StoredMail[]>;
  /** One message by its id, or null when there is none. */
  get(id: number): Promise<StoredMail | null>;
  /** Messages written (`createdAt`) from `from` (inclusive) to `to` (exclusive), ms, by state; 0 for a state with none. */
  counts(from: number, to: number): Promise<MailCounts>;
}

/**
 * The mail outbox's writes made outside a change: the resend requests the public API files, and the mail
 * worker's bookkeeping (claims and attempts of messages and of resend requests).
 */
export interface MailWork {
  /**
   * Takes up to `limit` pending messages due at `now`, oldest first, and leases them until `now + leaseMs`:
   * they come back with the lease's end as their `nextAttemptAt`, and are not due again before it; their state stays pending and `attempts` counts the attempts recorded before.
   */
  claimDue(now: number, leaseMs: number, limit: number): Promise<StoredMail[]>;
  /**
   * Records one attempt: `attempts` goes up by one, `lastAttemptAt` and `lastError` are the attempt's;
   * sent, the message is `sent` at `at` with no next attempt; else `pending` again, due at
   * `nextAttemptAt`, or `failed` when that is null.
   */
  recordAttempt(id: number, attempt: MailAttempt): Promise<void>;
  /**
   * Records a resend request, due at once: one write whatever the address (no lookup), so that the
   * answer takes the same path for an address with orders and one without.
   */
  requestResend(request: ResendRequest, at: number): Promise<void>;
  /**
   * Takes up to `limit` resend requests due at `now` (not before they were made), oldest first, and leases
   * them until `now + leaseMs`: not due again before the lease ends. `attempts` counts the claims before.
   */
  claimResendRequests(now: number, leaseMs: number, limit: number): Promise<ClaimedResendRequest[]>;
  /**
   * Completes a claimed request in one unit: writes its mail, if any (as `enqueue`), and deletes the
   * request with its address. A request whose step died before this is claimed again once its lease ends.
   * A second completion of the same request (two steps after a lease ran out) writes nothing: no mail.
   */
  completeResendRequest(id: number, mail: MailDraft | null, at: number): Promise<void>;
}

/** The mail outbox (every storage has one), whole as a change has it: a message is written with its cause. */
export interface MailStore extends MailReads, MailWork {
  /** Writes a message unless one with its cause was written before; whether this call wrote it. */
  enqueue(mail: MailDraft, at: number): Promise<boolean>;
  /**
   * Puts a failed message back to be sent: pending, due at `at`, `retriedAt` set to `at`; its cause (so its
   * Message-ID), attempts and last error are kept. Only when it is failed and was not retried after
   * `notSince` (one conditional write: of two racing retries one wins).
   *
   * @returns The message afterwards, or null when it is not failed, was retried after `notSince`, or does not exist.
   */
  retryFailed(id: number, at: number, notSince: number): Promise<StoredMail | null>;
}

/** One message as a sender gets it. */
export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The same on every attempt (`<cause@host>`), so a receiver can tell a repeat after a lost answer. */
  messageId: string;
  /**
   * The one-click unsubscribe address (RFC 8058) of a mail a recipient can stop: sent as `List-Unsubscribe`
   * with `List-Unsubscribe-Post: List-Unsubscribe=One-Click`. Absent on transactional mail (keys, resends).
   */
  listUnsubscribe?: string;
}

/** Sends mail (an SMTP relay). Throws when the message was not accepted; `permanent` when retrying is pointless. */
export interface MailSender {
  /**
   * Sends one message. When `signal` aborts (the worker's deadline), it stops at once and drops the
   * connection, so that an attempt the worker gave up can no longer be accepted by the relay.
   */
  send(mail: OutgoingMail, signal?: AbortSignal): Promise<void>;
  close?(): Promise<void>;
}

/** An error a sender throws when the server refused for good (an SMTP 5xx): the message is not retried. */
export class PermanentMailError extends Error {
  readonly permanent = true;
}
