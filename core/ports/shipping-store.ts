/**
 * What the changelog and the shipped-request mails keep (every storage has one): when each release was
 * first seen live for every client (core/releases/shipped.ts). The percent in force comes from the plan
 * and the clock (ramp-plan.ts) and a manual widen keeps no time, so the moment a release reached everyone
 * is written down by the first instance to see it, and kept (first write wins): a pull and a restore do not
 * move it.
 *
 * @module
 */

/** A release that reached every client, and when. */
export interface ReachedEveryone {
  version: string;
  at: number;
}

/** Where the shipping records are kept. */
export interface ShippingStore {
  /** Every release recorded as having reached everyone (pulled ones included), in no particular order. */
  reachedEveryone(): Promise<ReachedEveryone[]>;
  /**
   * Records that `version` reached everyone at `at`, unless it was recorded before (first write wins).
   *
   * @returns The time stored for it: `at`, or the earlier record's.
   */
  recordReachedEveryone(version: string, at: number): Promise<number>;
}
