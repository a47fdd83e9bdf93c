/**
 * One unit of work: how a change of the back office (and of the release autopilot) is written. Core
 * opens a change with `storage.change(work)`, reads what it needs through the change's stores, checks,
 * writes, and records what the change reports: its event, its audit entry, its mail, in that order
 * (`recordChange`). All of it commits when `work` resolves, and none of it when `work` throws. Nothing
 * in storage calls back into core.
 *
 * @module
 */
import type { AuditEntry, AuditStore, FeatureStore, FeedbackInbox, OrderStore } from './store-ports.ts';
import type { ReleaseStore } from './release-store.ts';
import type { EventDraft, OutboxStore } from './events.ts';
import type { MailDraft, MailStore } from './mail.ts';
import type { FeedbackLinkStore } from './link-store.ts';
import type { ShippingStore } from './shipping-store.ts';
import type { CheckoutStore } from './public-stores.ts';

/**
 * The stores of one change, bound to it: what they read is read inside the change, what they write
 * commits with it.
 */
export interface StorageChange {
  readonly releases: ReleaseStore;
  readonly features: FeatureStore;
  readonly inbox: FeedbackInbox;
  readonly orders: OrderStore;
  readonly outbox: OutboxStore;
  readonly audit: AuditStore;
  readonly mail: MailStore;
  /** Feedback linked to roadmap features (link-store.ts). */
  readonly links: FeedbackLinkStore;
  /** When releases reached everyone, and who was told (shipping-store.ts). */
  readonly shipping: ShippingStore;
  /** The keys of the checkout sessions: fulfilment saves them with order.paid and the keys mail. */
  readonly checkouts: Pick<CheckoutStore, 'getLicenses' | 'saveLicenses'>;
  /**
   * Holds `table` for this change: until it ends, no other change writes it (SQL: a table lock that
   * readers do not wait for; memory: changes run one at a time). Take it before reading what a write is
   * checked against (a publish is checked against every stored release).
   */
  lock(table: LockedTable): Promise<void>;
}

/** What a change may hold for itself. */
export type LockedTable = 'releases';

/** The port member that opens a change (a member of `Storage`). */
export interface ChangeStore {
  /**
   * Runs `work` as one unit: committed when it resolves, with everything it wrote through `tx`; rolled
   * back, all of it, when it throws (the error is thrown on). Two changes that write the same record
   * never interleave their read and their write of it. Public writes (feedback, votes, new checkouts) do
   * not wait for a change, and no change waits for a slow outside service: call a provider before or after.
   */
  change<T>(work: (tx: StorageChange) => Promise<T>): Promise<T>;
}

/** What a change reports with its writes; each part is optional (null: nothing to report). */
export interface ChangeRecord {
  /** When the change was made: the event's timestamp and the mail's time. */
  at: number;
  event?: EventDraft | null | undefined;
  audit?: AuditEntry | null | undefined;
  mail?: MailDraft | null | undefined;
}

/** Writes what a change reports inside it: its event, its audit entry, then its mail. */
export async function recordChange(tx: Pick<StorageChange, 'outbox' | 'audit' | 'mail'>, record: ChangeRecord): Promise<void> {
  if (record.event) await tx.outbox.enqueue(record.event, record.at);
  if (record.audit) await tx.audit.record(record.audit);
  if (record.mail) await tx.mail.enqueue(record.mail, record.at);
}

/**
 * The changes of an app, opened and counted in one place: core opens every change through `change`, never
 * `storage.change` (test/core/changes-counted.test.ts), so each one committed is counted, whoever made it.
 * What the app keeps read from storage for a while (the changelog's feeds, core/changelog/reads.ts) is
 * read again after one, so a change made through this app is served at once.
 */
export interface CommittedChanges {
  /** How many changes this app has committed so far. */
  count(): number;
  /** Runs `work` as one change of the storage (`ChangeStore.change`) and counts it once committed. */
  change<T>(work: (tx: StorageChange) => Promise<T>): Promise<T>;
}

/** Creates the changes of `storage`, counted from 0. */
export function countCommittedChanges(storage: ChangeStore): CommittedChanges {
  let count = 0;
  return {
    count: () => count,
    async change(work) {
      const result = await storage.change(work);
      count += 1;
      return result;
    },
  };
}
