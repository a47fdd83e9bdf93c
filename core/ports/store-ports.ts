/**
 * The stores of the back office that every storage has: the audit trail, the feedback inbox, the roadmap
 * as the operator edits it (core/operator), with the releases (release-store.ts), the orders (order-store.ts)
 * and the usage counts (usage-store.ts) re-exported. A change with an event, an audit entry or a mail runs
 * in a unit of work (change.ts), which writes them with it. Declared here, below ports.ts and the modules
 * that use them, so that no import runs back up.
 *
 * @module
 */
import type { AuditEntry, FeedbackEntry, FeedbackType, RoadmapFeature } from './port-types.ts';
import type { HandledBatch, InboxFilter } from './store-queries.ts';

export type { HandledBatch, InboxFilter, OrderFilter, PaidPeriod } from './store-queries.ts';

export type { AuditEntry } from './port-types.ts';

export type * from './release-store.ts';
export type * from './order-store.ts';
export type * from './usage-store.ts';
export type * from './shipping-store.ts';
export type * from './link-store.ts';

/** A stored audit entry, with its id (the order it was written in: the paging cursor). */
export interface AuditRow extends AuditEntry {
  id: number;
}

/** Which audit entries to list: a page of at most `limit`, below `before`, matching every filter given. */
export interface AuditFilter {
  limit: number;
  /** Only entries whose id is below this (the `next` of the page before). */
  before?: number | undefined;
  /** Only this operator's entries (exact name). */
  actor?: string | undefined;
  /** Only actions that start with this, e.g. "release." (case-sensitive). */
  action?: string | undefined;
  /** Only targets that contain this text (case-sensitive; `%` and `_` are plain text). */
  target?: string | undefined;
}

/** What is read of the audit trail. */
export interface AuditReads {
  /** The latest entries that match the filter, newest (highest id: ids count up from 1 as written) first. */
  list(filter: AuditFilter): Promise<AuditRow[]>;
}

/** Where the audit trail is kept (every storage has one), whole as a change has it. */
export interface AuditStore extends AuditReads {
  record(entry: AuditEntry): Promise<void>;
}

/** One stored submission, with its id and when it was marked handled. */
export interface InboxEntry extends FeedbackEntry {
  id: number;
  handledAt: number | null;
}

/** How many submissions of one type and rating arrived on one UTC day. */
export interface FeedbackCount {
  day: number;
  type: FeedbackType;
  rating: number | null;
  count: number;
}

/** Reviews or bug reports of one UTC day by the app version they name (a known version, `other` or `none`). */
export interface VersionFeedbackCount {
  day: number;
  /** The appVersion when it is one of the versions asked about; `other` for any other, `none` when absent. */
  version: string;
  type: 'review' | 'bug_report';
  count: number;
  /** The sum of the ratings given, and how many gave one. */
  ratingSum: number;
  rated: number;
}

/** What the inbox reads. */
export interface InboxReads {
  /** Reviews and bug reports by UTC day and app version, of the days from `fromDay` to `toDay`; versions not in `versions` as `other`. */
  countByVersion(fromDay: number, toDay: number, versions: readonly string[]): Promise<VersionFeedbackCount[]>;
  /**
   * Submissions by UTC day, type and rating, of the days from `fromDay` to `toDay`, both included, in a
   * fixed order: by day, then type, then rating with no rating first.
   */
  countByDay(fromDay: number, toDay: number): Promise<FeedbackCount[]>;
  /** Entries matching the filter, newest (highest id: ids grow with arrival) first, at most `limit`. */
  list(filter: InboxFilter): Promise<InboxEntry[]>;
}

/**
 * Where the inbox reads and marks (every storage has one), whole as a change has it. Each mark is one
 * statement; an operator's mark, with its audit entry, runs in a unit of work (change.ts).
 */
export interface FeedbackInbox extends InboxReads {
  /**
   * Marks an entry handled (at `at`, kept when it was handled already) or not.
   *
   * @returns The entry afterwards and whether its state changed, or null when there is no such entry.
   */
  setHandled(id: number, handled: boolean, at: number): Promise<HandledChange | null>;
  /**
   * Marks the listed entries handled at `at`, all in one write; an entry handled already keeps its time
   * and is not counted as marked. Answers the ids it marked, in id order (each once), and how many of the
   * listed ids exist.
   */
  markHandled(ids: readonly number[], at: number): Promise<HandledBatch>;
}

/** What marking an entry did: the entry afterwards, and whether it was in the other state before. */
export interface HandledChange {
  entry: InboxEntry;
  changed: boolean;
}

/** A roadmap feature as the operator sees it: hidden ones too, with its votes and where it was merged. */
export interface StoredFeature extends RoadmapFeature {
  vote_count: number;
  /** The feature its votes moved to, when it was merged as a duplicate (it is hidden then). */
  merged_into: number | null;
  /** Whether the config file's roadmap defines it (a later config edit to it is applied at start). */
  from_config: boolean;
}

/** What the operator may change of a feature. */
export type FeatureFields = Omit<RoadmapFeature, 'id'>;

/** Some of a feature's fields; those absent (or undefined) stay as they are. */
export type FeatureChange = { [K in keyof FeatureFields]?: FeatureFields[K] | undefined };

/** What applying the config file's roadmap changed (see Storage.syncRoadmap). */
export interface RoadmapSyncReport {
  /** Features the config file added or changed since it was last applied. */
  applied: number[];
  /** Features the config file no longer lists, hidden. */
  hidden: number[];
  /** No feature came from the config file before: this was the seed of an empty roadmap. */
  first: boolean;
}

export type MergeOutcome =
  | { kind: 'merged'; from: StoredFeature; into: StoredFeature; moved: number }
  | { kind: 'not_found'; id: number }
  | { kind: 'already_merged'; from: StoredFeature }
  | { kind: 'hidden_target'; into: StoredFeature };

export type UnmergeOutcome =
  | { kind: 'unmerged'; shown: StoredFeature; from: StoredFeature; restored: number }
  | { kind: 'not_found'; id: number }
  | { kind: 'not_merged'; feature: StoredFeature }
  | { kind: 'not_recorded'; feature: StoredFeature }
  | { kind: 'target_merged'; into: StoredFeature };

/** What is read of the roadmap as the operator edits it. */
export interface FeatureReads {
  /** Every feature, hidden ones too, in id order. */
  list(): Promise<StoredFeature[]>;
}

/**
 * Where the operator edits the roadmap (every storage has one), whole as a change has it; GET
 * /api/v1/roadmap reflects each change at once, once committed.
 */
export interface FeatureStore extends FeatureReads {
  /** Adds a feature, not the config's (`from_config` false), with the next free id (above every existing one). */
  create(fields: FeatureFields): Promise<StoredFeature>;
  /** Changes some fields; the feature afterwards, or null when there is none. Showing it clears merged_into. */
  update(id: number, fields: FeatureChange): Promise<StoredFeature | null>;
  /**
   * Merges duplicate `from` into `into`, in one transaction: `from`'s votes move to `into` (a voter who
   * voted for both keeps one vote), `into`'s count is exact (a network's cap included, as the toggles
   * count), and `from` is hidden with merged_into set. Refused, changing nothing: `not_found` for an
   * unknown feature (either one), `already_merged` for one merged before, `hidden_target` for a hidden `into`.
   */
  merge(from: number, into: number): Promise<MergeOutcome>;
  /**
   * Undoes the merge of `id`, in one transaction: it is shown again, and each vote it had when merged
   * goes back to it from the feature it was merged into, if that voter still votes there (a moved vote
   * leaves that feature; a voter who had voted for both keeps both). Only a merge that recorded its votes
   * (every merge since migration 29) can be undone, and not while the target is merged itself. Refused,
   * changing nothing: `not_found` for an unknown feature, `not_merged` for one not merged (or shown again
   * by an edit since, which ended its merge), `target_merged` while its target is merged.
   */
  unmerge(id: number): Promise<UnmergeOutcome>;
}
