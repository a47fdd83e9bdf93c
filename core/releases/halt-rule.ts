/**
 * The halt rule (docs/releases.md "The halt rule"): while a release ramps, the clients that reported a bug
 * in it, per install running it, are compared with the release before it at the same age. The ramp holds
 * at the step in force only on real evidence of a regression:
 * - enough distinct reporting clients (`minClients`) from enough distinct networks (`minNetworks`, a /24
 *   or /48 each), so that one address, or many in one network, can never halt it;
 * - a rate significantly above `factor` times the previous release's: a one-sided exact conditional test
 *   of two Poisson rates (binomial-tail.ts) at `confidence`, whose counts are the reporting networks
 *   (parties, core/clients/party.ts), not clients: many clients of one network weigh as one.
 * After a resume, the networks that reported before it count no more for that release.
 * Pure: the figures are the distinct counts of storage (usage-store.ts), the age comes from the clock;
 * installs, counted a UTC day, are read for the part of each day the windows cover (installsOver).
 *
 * @module
 */
import { byVersionDescending, compareMsiVersions } from './rollout-rule.ts';
import { excessPValue } from './binomial-tail.ts';
import type { Release, UsageCount } from '../ports/store-ports.ts';

/** The rule's settings. */
export interface HaltRule {
  /** How many times the previous release's rate counts as a regression; 3 by default. */
  factor: number;
  /** The fewest distinct reporting clients that may halt a ramp; 10 by default. */
  minClients: number;
  /** The fewest distinct networks (/24 for IPv4, /48 for IPv6) they report from; 10 by default. */
  minNetworks: number;
  /** How sure the test must be that the rate is above `factor` times the previous one; 0.999 by default. */
  confidence: number;
}

/** What a ramp plan may set of the rule for its release. */
export type PlanHaltRule = Partial<Pick<HaltRule, 'minClients' | 'minNetworks'>>;

/** docs/releases.md's worked example halts with these: 20 reporting clients of 500 installs against 1 of 1,000. */
export const DEFAULT_HALT_RULE: HaltRule = { factor: 3, minClients: 10, minNetworks: 10, confidence: 0.999 };

/** One version's figures over some time. */
export interface VersionFigures {
  version: string;
  /** Distinct clients a day that ran it, each day's weighed by the part of it read (installsOver): may be fractional. */
  installs: number;
  /** Distinct clients that reported a bug in it. */
  reporters: number;
  /** The distinct networks those reported from. */
  networks: number;
  /** Reporting clients per 1,000 installs (installs counted as at least the reporters, and at least 1). */
  perThousand: number;
}

/** What the rule decided, with the figures it compared. */
export interface HaltDecision {
  halt: boolean;
  release: VersionFigures;
  previous: VersionFigures;
  /** The test's p-value: the chance of an excess at least this large were the rate only `factor` times the previous one. */
  pValue: number;
  /** A sentence with the figures: what haltReason says. */
  reason: string;
}

/** The distinct reporting clients and networks of a version, as storage counts them. */
export interface Reporters {
  clients: number;
  networks: number;
}

/** What the rule reads: the release's and the previous one's installs and reporters over the windows it compares. */
export interface HaltFigures {
  usage: readonly UsageCount[];
  mine: Reporters;
  before: Reporters;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const dayOf = (ms: number) => Math.floor(ms / DAY_MS);

/**
 * A version's installs over a window, from its counts a UTC day (distinct clients a day): each day's count
 * weighs the part of that day the window covers, out of the part of it the version existed in and that has
 * passed by `now`. A whole past day counts whole, an hour of it 1/24; the day under way counts the installs
 * seen so far for the time so far. So installs are read over the same times as reports, to the
 * millisecond, on both sides of the comparison (whole days of installs against hours of reports would make
 * a rate look up to 24 times lower than it is).
 */
export function installsOver(rows: readonly UsageCount[], version: string, window: HaltWindow, now: number): number {
  let installs = 0;
  for (const row of rows) {
    if (row.kind !== 'installed' || row.release !== version) continue;
    const start = row.day * DAY_MS;
    const end = start + DAY_MS;
    const existed = Math.min(end, now) - Math.max(start, window.since);
    const covered = Math.min(end, window.to) - Math.max(start, window.from);
    if (existed > 0 && covered > 0) installs += row.count * Math.min(1, covered / existed);
  }
  return installs;
}

/** The release a ramping one is compared with: the highest live stored release below it, else the baseline. */
export function previousOf(release: Release, releases: readonly Release[]): Release | null {
  return [...releases].sort(byVersionDescending).find((r) => r.pulledAt === null && compareMsiVersions(r.version, release.version) < 0) ?? null;
}

/** When the rule's observation of a release began: its plan's publication, or its last resume. */
export function watchedFrom(release: Release): number {
  return release.ramp?.watchFrom ?? release.publishedAt;
}

/** When the release was last resumed after a halt, or null: the networks that reported before then count no more. */
export function resumedAt(release: Release): number | null {
  const from = watchedFrom(release);
  return from > release.publishedAt ? from : null;
}

/** The rule in force for a release: the settings, with what its plan sets. */
export function ruleFor(release: Release, rule: HaltRule): HaltRule {
  const own = release.ramp?.halt;
  return { ...rule, minClients: own?.minClients ?? rule.minClients, minNetworks: own?.minNetworks ?? rule.minNetworks };
}

/** The times one version is read over: from `from` to `to`, the version having run since `since`. */
export interface HaltWindow {
  from: number;
  to: number;
  /** Its publication; for the baseline, which ran before any release, -Infinity. */
  since: number;
}

/** The windows the rule compares at `now`: the release's since it was watched, the previous one's at the same age. */
export interface HaltWindows {
  mine: HaltWindow;
  before: HaltWindow & { version: string };
}

/**
 * The windows compared for a release at `now`.
 *
 * @param previous The release it is compared with (previousOf), or null for the baseline `baselineVersion`
 *   over the same time up to the release's publication.
 */
export function haltWindows(release: Release, previous: Release | null, baselineVersion: string, now: number): HaltWindows {
  const from = watchedFrom(release);
  const age = Math.max(0, now - from);
  const before = previous === null
    ? { version: baselineVersion, from: release.publishedAt - age, to: release.publishedAt, since: Number.NEGATIVE_INFINITY }
    : { version: previous.version, from: previous.publishedAt, to: previous.publishedAt + age, since: previous.publishedAt };
  return { mine: { from, to: now, since: release.publishedAt }, before };
}

/** The UTC days whose usage counts the rule reads. */
export function daysRead(windows: HaltWindows): { fromDay: number; toDay: number } {
  return { fromDay: Math.min(dayOf(windows.mine.from), dayOf(windows.before.from)), toDay: Math.max(dayOf(windows.mine.to), dayOf(windows.before.to)) };
}

const figures = (version: string, installs: number, reporters: Reporters): VersionFigures => {
  const counted = Math.max(installs, reporters.clients, 1);
  return { version, installs, reporters: reporters.clients, networks: reporters.networks, perThousand: (reporters.clients * 1000) / counted };
};

const rate = (n: number) => (Math.round(n * 10) / 10).toFixed(1);
const num = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
const percent = (n: number) => `${String(Math.round(n * 1000) / 10)}%`;
const pText = (p: number) => (p < 0.0001 ? '< 0.0001' : `${p.toPrecision(2)}`);

/** Decides for a ramping release from the figures of `windows`. */
export function decideHalt(release: Release, windows: HaltWindows, read: HaltFigures, settings: HaltRule): HaltDecision {
  const rule = ruleFor(release, settings);
  const { mine: m, before: b } = windows;
  const mine = figures(release.version, installsOver(read.usage, release.version, m, m.to), read.mine);
  const before = figures(b.version, installsOver(read.usage, b.version, b, m.to), read.before);
  const installsMine = Math.max(mine.installs, mine.reporters, 1);
  // With no installs counted for the previous release there is nothing to compare with: the test cannot reject.
  // k counts parties, not clients: each network once, however many of its clients reported.
  const pValue = before.installs === 0 ? 1 : excessPValue(mine.networks, installsMine, before.networks, before.installs, rule.factor);
  const enough = mine.reporters >= rule.minClients && mine.networks >= rule.minNetworks;
  const halt = enough && pValue < 1 - rule.confidence;
  const days = Math.floor((m.to - m.from) / DAY_MS);
  const age = days === 0 ? 'on its first day' : `in its first ${days + 1} days`;
  const watched = watchedFrom(release) === release.publishedAt ? age : `${age} since it resumed`;
  const reason =
    `${release.version}: ${num(mine.reporters)} reporting clients from ${num(mine.networks)} networks, of ${
      num(Math.round(mine.installs))
    } installs ${watched} ` +
    `(${rate(mine.perThousand)} per 1,000), against ${before.version}: ${num(before.reporters)} of ${num(Math.round(before.installs))} ` +
    `(${rate(before.perThousand)} per 1,000) at the same age; p = ${pText(pValue)} for more than ${rule.factor}× its rate. ` +
    `The rule halts with at least ${rule.minClients} reporting clients from ${rule.minNetworks} networks and p below ${pText(1 - rule.confidence)} ` +
    `(${percent(rule.confidence)} confidence).`;
  return { halt, release: mine, previous: before, pValue, reason };
}
