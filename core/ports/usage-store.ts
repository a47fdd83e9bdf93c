/**
 * Where the usage counts are kept (every storage has one): downloads and update checks by day
 * (core/budgets/usage.ts), and the distinct clients behind the two figures the halt rule compares
 * (core/releases/halt-rule.ts): who runs a version (one install per client, version and day) and who
 * reported a bug in it (one reporter per client and release). Clients are kept only as keyed hashes of
 * their address and network (core/clients/voter-id.ts): no address is stored.
 *
 * @module
 */

/**
 * `download`, `update_check`: requests; `installed`: distinct clients a day by the version their
 * User-Agent names (`release` is that version, `other` or `none`); `bug_report`: distinct clients that
 * reported a bug in a release (their first report of it).
 */
export type UsageKind = 'download' | 'update_check' | 'installed' | 'bug_report';

export interface UsageCount {
  /** UTC day: whole days since 1970-01-01. */
  day: number;
  kind: UsageKind;
  release: string;
  source: string;
  platform: 'windows' | 'other';
  count: number;
}

/** A client seen running a version on a UTC day, by the keyed hash of its client key. */
export interface InstallSighting {
  day: number;
  /** The version its User-Agent names, `other` or `none`. */
  release: string;
  clientHash: string;
  platform: 'windows' | 'other';
}

/** A bug report's client, by the keyed hashes of its client key and of its network (/24 or /48). */
export interface BugReporter {
  release: string;
  clientHash: string;
  networkHash: string;
  /** When it reported (ms since the epoch). */
  at: number;
}

/** How many distinct clients reported, and from how many distinct networks. */
export interface ReporterCount {
  clients: number;
  networks: number;
}

/** Where the counts are kept (every storage has one). */
export interface UsageStore {
  /** Adds counts to the stored ones (one batch, atomic). */
  add(counts: readonly UsageCount[]): Promise<void>;
  /**
   * Every stored count of the days from `fromDay` to `toDay`, both included, one per day and label set
   * (the counts added for it summed), in a fixed order: by day, then kind, release, source and platform.
   */
  list(fromDay: number, toDay: number): Promise<UsageCount[]>;
  /**
   * Keeps the sightings of a client, version and day not kept yet, and adds one `installed` count (source
   * `none`) for each of those, in one atomic batch; returns them (a sighting repeated in the batch, or
   * kept before, or by a batch added at the same time, is not returned again). Sightings of days before yesterday may
   * be forgotten: the counts hold them.
   */
  addSightings(sightings: readonly InstallSighting[]): Promise<InstallSighting[]>;
  /**
   * Records a bug report's client for its release: its first report's time is kept and its latest one
   * updated. True when it is the client's first report of that release.
   */
  addReporter(reporter: BugReporter): Promise<boolean>;
  /**
   * The distinct clients of `release` that reported between `from` and `to` (ms, both included: a
   * client's first report at or before `to` and its latest at or after `from`), and their distinct networks.
   * With `discountedBefore`, a network of which any client first reported this release before that time is
   * left out, with all its clients, whenever they reported (the halt rule after a resume: the networks that
   * reported before it count no more for that release, for good).
   */
  reporters(release: string, from: number, to: number, discountedBefore?: number): Promise<ReporterCount>;
}
