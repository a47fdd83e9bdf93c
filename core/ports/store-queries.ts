/**
 * What the back office's stores (store-ports.ts) are asked and answer in lists: the inbox's and the orders'
 * filters, a period of paid orders, what a bulk mark did. Kept apart from store-ports.ts for its length.
 *
 * @module
 */
import type { FeedbackType } from './port-types.ts';

export interface InboxFilter {
  type?: FeedbackType | undefined;
  rating?: number | undefined;
  /** Received at or after, ms since the epoch. */
  since?: number | undefined;
  handled?: boolean | undefined;
  /** Text found in the description or the email, any case (a substring; `%` and `_` are plain text). */
  search?: string | undefined;
  /** Entries with a smaller id only: the `next` of the page before. */
  before?: number | undefined;
  limit: number;
}

/** What one bulk mark did: the ids it marked (ascending, each once), and how many of the listed ids exist. */
export interface HandledBatch {
  marked: number[];
  found: number;
}

export interface OrderFilter {
  /** The buyer's email, matched exactly but for case. */
  email?: string | undefined;
  /** One session, whatever its state. */
  session?: string | undefined;
  /** Text found in the buyer's name, any case (a substring; `%` and `_` are plain text); with `email`, both must match. */
  name?: string | undefined;
  limit: number;
}

/** Paid orders placed in a period by their fulfilment time (else their creation time), for the accounting export. */
export interface PaidPeriod {
  /** From (included) and until (excluded), ms since the epoch. */
  from: number;
  until: number;
  /** Orders after this one only (its time and session id): the `next` of the page before. */
  after?: { at: number; session: string } | undefined;
  limit: number;
}
