/**
 * Where the installs of apps on the update files are counted (every storage has one): an app on the files
 * never asks GET /version, so it says once a day which version it runs (POST /api/v1/installs, issue 55),
 * and its bug reports carry its install id. The counts are by **install id**, never mixed with the v1 counts
 * by address (usage-store.ts): one install per install id, version and UTC day, and one reporter per
 * install id and release, with its network. Install ids are free to mint, so at most `perClient` install
 * ids of one client (an address: an IPv4, or an IPv6 /64) count for a version a day, and the halt rule
 * counts parties by network (core/releases/halt-rule.ts). Install ids, clients and networks are kept only
 * as keyed hashes.
 *
 * @module
 */
import type { BugReporter, ReporterCount } from './usage-store.ts';

/** One install's ping, as storage keeps it. */
export interface InstallPing {
  /** UTC day: whole days since 1970-01-01. */
  day: number;
  /** The update channel it reads (`stable`, ...). */
  channel: string;
  /** The version it runs: a live release or the baseline. */
  release: string;
  /** The keyed hash of its install id. */
  installHash: string;
  /** The keyed hash of the client (address) that sent it. */
  clientHash: string;
}

/** Distinct install ids that ran a version on a UTC day, by the channel their first ping of the day named. */
export interface InstallCount {
  day: number;
  channel: string;
  release: string;
  count: number;
}

/** Where the installs by install id are kept (every storage has one). */
export interface InstallStore {
  /**
   * Counts a ping: true when it is the first of its install id, version and day, and fewer than `perClient`
   * install ids of its client were counted for that version and day; false, counting nothing, otherwise.
   * Atomic: of the same ping sent to two instances at once, one counts. A ping over the client's cap
   * keeps nothing, so it may count another day. Pings of days before yesterday may be forgotten: the
   * counts hold them.
   */
  addInstall(ping: InstallPing, perClient: number): Promise<boolean>;
  /** Every count of the days from `fromDay` to `toDay`, both included, by day, then channel, then release. */
  list(fromDay: number, toDay: number): Promise<InstallCount[]>;
  /**
   * Records a bug report's install (`clientHash` is the keyed hash of its install id) for its release, as
   * `UsageStore.addReporter` does for clients: its first report's time is kept and its latest one updated.
   * True when it is the install's first report of that release.
   */
  addReporter(reporter: BugReporter): Promise<boolean>;
  /** The distinct reporting installs of `release` and their networks, as `UsageStore.reporters` counts clients. */
  reporters(release: string, from: number, to: number, discountedBefore?: number): Promise<ReporterCount>;
}
