/**
 * What the changelog and the shipped-request mails keep (every storage has one): when each release was
 * first seen live for every client (core/releases/shipped.ts). The percent in force comes from the plan
 * and the clock (ramp-plan.ts) and a manual widen keeps no time, so the moment a release reached everyone
 * is written down by the first instance to see it, and kept (first write wins): a pull and a restore do not
 * move it. And the requesters told when their request shipped (core/mail/shipped-requests.ts): who was
 * told (once, for ever), the addresses that asked for no more of these mails, the features whose
 * requesters are not to be told.
 *
 * @module
 */

/** A release that reached every client, and when. */
export interface ReachedEveryone {
  version: string;
  at: number;
}

/** What is read of the shipping records. */
export interface ShippingReads {
  /** Every release recorded as having reached everyone (pulled ones included), in no particular order. */
  reachedEveryone(): Promise<ReachedEveryone[]>;
  /** The feedback entries whose requester was told, in id order. */
  told(): Promise<number[]>;
  /** How many requesters were told from `from` (inclusive) to `to` (exclusive), ms. */
  toldCount(from: number, to: number): Promise<number>;
  /** The addresses that asked for no more of these mails, lower-cased. */
  unsubscribed(): Promise<string[]>;
  /** The features whose requesters are not to be told, in id order. */
  mailsOff(): Promise<number[]>;
}

/**
 * The shipping records written outside a change, each first write wins: a release seen live for everyone
 * (by whichever read sees it first: the changelog, the release view), and an unsubscribe (the public API).
 */
export interface ShippingRecords {
  /**
   * Records that `version` reached everyone at `at`, unless it was recorded before (first write wins).
   *
   * @returns The time stored for it: `at`, or the earlier record's.
   */
  recordReachedEveryone(version: string, at: number): Promise<number>;
  /** Stops every shipped-request mail to an address (lower-cased; kept once, the first time). */
  unsubscribe(email: string, at: number): Promise<void>;
}

/** Where the shipping records are kept, whole as a change has it. */
export interface ShippingStore extends ShippingReads, ShippingRecords {
  /**
   * Marks an entry's requester told at `at`, unless it was before or its address (lower-cased) asked for
   * no more mails. Called in a change with the mail it writes: whether this call marked it (so of two
   * instances telling at once, one mails).
   */
  markTold(feedbackId: number, email: string, at: number): Promise<boolean>;
  /** Turns the mails of one feature's requesters off (false) or on again (true). */
  setFeatureMails(featureId: number, enabled: boolean): Promise<void>;
}
