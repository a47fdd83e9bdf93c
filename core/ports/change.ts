/**
 * One unit of work: how a change of the back office (and of the release autopilot) is written. Core
 * opens a change with `storage.change(work)`, reads what it needs through the change's stores, checks,
 * writes, and records what the change reports: its event, its audit entry, its mail, in that order
 * (`recordChange`). All of it commits when `work` resolves, and none of it when `work` throws. Nothing
 * in storage calls back into core.
 *
 * @module
 */
import type { AuditEntry, AuditReads, AuditStore, FeatureReads, FeatureStore, FeedbackInbox, InboxReads } from './store-ports.ts';
import type { OrderReads, OrderStore, PaymentRecords } from './order-store.ts';
import type { ReleaseReads, ReleaseStore } from './release-store.ts';
import type { DeliveryWork, EventDraft, OutboxReads, OutboxStore } from './events.ts';
import type { MailDraft, MailReads, MailStore, MailWork } from './mail.ts';
import type { FeedbackLinkStore, LinkReads } from './link-store.ts';
import type { ShippingReads, ShippingRecords, ShippingStore } from './shipping-store.ts';
import type { CheckoutStore } from './public-stores.ts';
import type { UpdateFileReads, UpdateFileStore } from './update-files.ts';

/**
 * The stores a change writes, by name: the one roster of them. Each is `whole` in a change (`StorageChange`,
 * every write it has), and `outside` on `Storage`: what is read outside a change, with the few writes that
 * are made outside one (a face named for who makes them). An operator's write exists only in a change.
 */
export interface ChangedStores {
  releases: { whole: ReleaseStore; outside: ReleaseReads };
  features: { whole: FeatureStore; outside: FeatureReads };
  inbox: { whole: FeedbackInbox; outside: InboxReads };
  /** Outside a change: what the payment path records (order-store.ts PaymentRecords). */
  orders: { whole: OrderStore; outside: OrderReads & PaymentRecords };
  /** Outside a change: the webhook worker's bookkeeping (events.ts DeliveryWork). */
  outbox: { whole: OutboxStore; outside: OutboxReads & DeliveryWork };
  audit: { whole: AuditStore; outside: AuditReads };
  /** Outside a change: resend requests and the mail worker's bookkeeping (mail.ts MailWork). */
  mail: { whole: MailStore; outside: MailReads & MailWork };
  /** Feedback linked to roadmap features (link-store.ts). */
  links: { whole: FeedbackLinkStore; outside: LinkReads };
  /** When releases reached everyone, and who was told (shipping-store.ts); outside a change, its first-write-wins records. */
  shipping: { whole: ShippingStore; outside: ShippingReads & ShippingRecords };
  /** The checkout sessions: a change saves the keys (with order.paid and the keys mail); the public API has them whole. */
  checkouts: { whole: Pick<CheckoutStore, 'getLicenses' | 'saveLicenses'>; outside: CheckoutStore };
  /** The signed update files (update-files.ts): a publish stores targets, snapshot and timestamp in one change. */
  updateFiles: { whole: UpdateFileStore; outside: UpdateFileReads };
}

/** The name of a store a change writes. */
export type ChangedStoreName = keyof ChangedStores;

/** Each store a change writes, whole. */
export type WholeStores = { readonly [K in ChangedStoreName]: ChangedStores[K]['whole'] };

/** Each store a change writes, as `Storage` has it outside a change. */
export type OutsideStores = { readonly [K in ChangedStoreName]: ChangedStores[K]['outside'] };

/**
 * The stores of one change, bound to it: what they read is read inside the change, what they write
 * commits with it.
 */
export interface StorageChange extends WholeStores {
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
   * back, all of it, when it throws (the error is thrown on). A change that throws undoes only its own
   * writes; writes made outside it meanwhile stay (a feedback entry and its event, a payment event kept, a
   * worker's attempt): a storage never puts back a snapshot of what it held when the change began. Two
   * changes that write the same record never interleave their read and their write of it. Public writes
   * (feedback, votes, new checkouts) do not wait for a change, and no change waits for a slow outside
   * service: call a provider before or after.
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
