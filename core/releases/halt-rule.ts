/**
 * The halt rule (docs/releases.md "The halt rule"): while a release ramps, its bug reports per 1,000
 * installs running it are compared with the release before it at the same age. Past `factor` times that
 * rate, with at least `minReports` reports, its ramp holds at the step in force. Pure: the figures are
 * the usage counts (`installed` and `bug_report`, by UTC day), the age comes from the clock.
 *
 * @module
 */
import { byVersionDescending, compareMsiVersions } from './rollout-rule.ts';
import type { Release, UsageCount } from '../ports/store-ports.ts';

/** The rule's settings. */
export interface HaltRule {
  /** How many times the previous release's rate is too many; 3 by default. */
  factor: number;
  /** The fewest bug reports that may halt a ramp; 10 by default. */
  minReports: number;
}

/** Chosen so that docs/operating.md's example halts: 20 reports in 500 installs (40 per 1,000) against 1 in 1,000. */
export const DEFAULT_HALT_RULE: HaltRule = { factor: 3, minReports: 10 };

/** One version's figures over some UTC days. */
export interface VersionFigures {
  version: string;
  installs: number;
  reports: number;
  /** Bug reports per 1,000 installs (installs counted as at least 1). */
  perThousand: number;
  fromDay: number;
  toDay: number;
}

/** What the rule decided, with the figures it compared. */
export interface HaltDecision {
  halt: boolean;
  release: VersionFigures;
  previous: VersionFigures | null;
  /** A sentence with the figures: what haltReason says. */
  reason: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const dayOf = (ms: number) => Math.floor(ms / DAY_MS);

/** A version's installs and counted bug reports over the days from `fromDay` to `toDay`. */
export function figuresOf(rows: readonly UsageCount[], version: string, fromDay: number, toDay: number): VersionFigures {
  let installs = 0;
  let reports = 0;
  for (const row of rows) {
    if (row.release !== version || row.day < fromDay || row.day > toDay) continue;
    if (row.kind === 'installed') installs += row.count;
    else if (row.kind === 'bug_report') reports += row.count;
  }
  return { version, installs, reports, perThousand: (reports * 1000) / Math.max(1, installs), fromDay, toDay };
}

/** The release a ramping one is compared with: the highest live stored release below it, else the baseline. */
export function previousOf(release: Release, releases: readonly Release[]): Release | null {
  return [...releases].sort(byVersionDescending).find((r) => r.pulledAt === null && compareMsiVersions(r.version, release.version) < 0) ?? null;
}

/** The days the rule reads for a release at `now`: its own and the previous one's at the same age. */
export function daysRead(release: Release, previous: Release | null, now: number): { fromDay: number; toDay: number } {
  const from = previous === null ? dayOf(release.publishedAt) - (dayOf(now) - dayOf(release.publishedAt)) : dayOf(previous.publishedAt);
  return { fromDay: Math.min(from, dayOf(release.publishedAt)), toDay: dayOf(now) };
}

const rate = (n: number) => (Math.round(n * 10) / 10).toFixed(1);
const num = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/**
 * Decides for a ramping release at `now`.
 *
 * @param previous The release it is compared with (previousOf), or null for the baseline `baselineVersion`
 *   over the same number of days up to the release's publication.
 */
export function decideHalt(release: Release, previous: Release | null, baselineVersion: string, rows: readonly UsageCount[], now: number, rule: HaltRule): HaltDecision {
  const published = dayOf(release.publishedAt);
  const ageDays = dayOf(now) - published;
  const mine = figuresOf(rows, release.version, published, dayOf(now));
  const before =
    previous === null
      ? figuresOf(rows, baselineVersion, published - ageDays, published)
      : figuresOf(rows, previous.version, dayOf(previous.publishedAt), dayOf(previous.publishedAt) + ageDays);
  const past = mine.perThousand > rule.factor * before.perThousand;
  const halt = mine.reports >= rule.minReports && past;
  const age = ageDays === 0 ? 'on its first day' : `in its first ${ageDays + 1} days`;
  const reason =
    `${release.version}: ${num(mine.reports)} bug reports from ${num(mine.installs)} installs ${age} (${rate(mine.perThousand)} per 1,000), ` +
    `against ${before.version}: ${num(before.reports)} from ${num(before.installs)} (${rate(before.perThousand)} per 1,000) at the same age; ` +
    `the rule halts past ${rule.factor}× with at least ${rule.minReports} reports.`;
  return { halt, release: mine, previous: before, reason };
}
