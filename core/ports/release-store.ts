/**
 * Where the desktop releases are kept (every storage has one): what GET /version and GET /download serve
 * (core/releases/release-view.ts) and the operator publishes, widens, pulls and restores. Part of the
 * back office's stores (store-ports.ts), kept apart for its length. Each change is one statement; a
 * change with an event or an audit entry runs in a unit of work (change.ts), whose `lock('releases')`
 * holds off other publishes while a new release is checked against the stored ones.
 *
 * @module
 */

/**
 * A ramp plan (core/releases/ramp-plan.ts): the rollouts in order, in basis points (hundredths of a percent,
 * 0-10000), how long each lasts, when the first began.
 */
export interface RampPlan {
  basisPoints: number[];
  everyMs: number;
  startAt: number;
  /** When the halt rule's observation began, when not at publication: the last resume (core/releases/halt-rule.ts). */
  watchFrom?: number;
  /** The halt rule's minimums for this release, where they differ from the configured ones. */
  halt?: { minClients?: number; minNetworks?: number };
}

/** One published desktop release. */
export interface Release {
  version: string;
  msiUrl: string;
  notesUrl: string | null;
  /**
   * The channel it is on (core/releases/channels.ts): the most stable it was published or promoted to;
   * `stable` for a release stored before channels.
   */
  channel: string;
  /**
   * The share of clients offered this release or a newer one, in basis points (0-10000: 50 is 0.5 %);
   * update checks of `/version`, with whole-percent buckets, round it down (core/releases/rollout-rule.ts).
   */
  rolloutBasisPoints: number;
  publishedAt: number;
  /** When it was pulled, or null: a pulled release is not served until it is restored. */
  pulledAt: number | null;
  /** The MSI's SHA-256, 64 lower-case hex digits, or null when not given (releases stored before it was kept). */
  sha256: string | null;
  /** The MSI's size in bytes, or null when not given. */
  size: number | null;
  /** Whether the app should install it without asking (travels in a signed header). */
  critical: boolean;
  /**
   * Its ramp plan, or null: with one, the rollout in force comes from the plan and the clock
   * (core/releases/ramp-plan.ts) and `rolloutBasisPoints` is its first step. A manual change ends it.
   */
  ramp: RampPlan | null;
  /** When the halt rule held its ramp (core/releases/halt-rule.ts), or null. */
  haltedAt: number | null;
  /** Why, with the figures, or null. */
  haltReason: string | null;
  /**
   * The last step of its ramp plan (from 0) announced by a release.rolled_out event: 0 at publish (the
   * first step is announced by release.published). A step in force beyond it is announced once
   * (core/releases/ramp-announcements.ts).
   */
  announcedStep: number;
}

/** A release to publish: the channel, the integrity fields, the critical flag and the plan may be left out (stable, null, false, null). */
export type NewRelease =
  & Omit<Release, 'channel' | 'pulledAt' | 'sha256' | 'size' | 'critical' | 'ramp' | 'haltedAt' | 'haltReason' | 'announcedStep'>
  & Partial<Pick<Release, 'channel' | 'sha256' | 'size' | 'critical' | 'ramp'>>;

/**
 * A release as a storage keeps it once published: what `release` leaves out is null, false or null (no
 * digest, no size, not critical, no plan), and it is neither pulled, halted nor announced beyond publication.
 * The rule every storage applies when it publishes (`ReleaseStore.publishRelease`).
 */
export function publishedRelease(release: NewRelease): Release {
  return {
    channel: 'stable',
    sha256: null,
    size: null,
    critical: false,
    ramp: null,
    ...release,
    pulledAt: null,
    haltedAt: null,
    haltReason: null,
    announcedStep: 0,
  };
}

/** What is read of the releases. */
export interface ReleaseReads {
  /**
   * Every release, newest first: the latest publish time first; of equal publish times, the one published
   * later first. Each with every field as published (publishedRelease) and changed since.
   */
  listReleases(): Promise<Release[]>;
}

/** Where releases are kept (every storage has one), whole as a change has it. */
export interface ReleaseStore extends ReleaseReads {
  /** Stores a new release as `publishedRelease` has it; false, storing nothing, when that version exists already (pulled or not). */
  publishRelease(release: NewRelease): Promise<boolean>;
  /**
   * Sets a live release's rollout (basis points) and ends its plan (and halt), or with `ramp` replaces it
   * with that plan (no step of which is announced yet: `announcedStep` 0); the release afterwards, or null
   * when there is no live one of that version (a pulled release keeps its rollout).
   */
  setRollout(version: string, rolloutBasisPoints: number, ramp?: RampPlan): Promise<Release | null>;
  /** Moves a live release to `channel`; the release afterwards, or null when there is no live one of that version. */
  promoteRelease(version: string, channel: string): Promise<Release | null>;
  /**
   * Pulls a release (idempotent: a second pull keeps the first time); the release afterwards, or null when
   * there is none. With `rolloutBasisPoints` (the rollout in force), its plan ends at that rollout.
   */
  pullRelease(version: string, at: number, rolloutBasisPoints?: number): Promise<Release | null>;
  /** Serves a pulled release again (idempotent) and clears a halt; the release afterwards, or null when there is none. */
  restoreRelease(version: string): Promise<Release | null>;
  /**
   * Holds a live release's ramp at `at` with its reason; the release afterwards, or null when it has no
   * plan, is pulled or is halted already (so two instances deciding at once halt it once).
   */
  haltRelease(version: string, at: number, reason: string): Promise<Release | null>;
  /** Resumes a halted ramp with its plan moved on (ramp-plan.ts resumedPlan); the release afterwards, or null when not halted. */
  resumeRelease(version: string, ramp: RampPlan): Promise<Release | null>;
  /**
   * Marks `step` of a live release's plan announced, when its plan is still `ramp` (not ended, resumed or
   * replaced meanwhile) and no later step was announced; the release afterwards, or null when nothing
   * changed (so of two instances announcing at once, one does).
   */
  announceStep(version: string, step: number, ramp: RampPlan): Promise<Release | null>;
}
