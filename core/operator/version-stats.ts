/**
 * GET /stats' `versions`: who runs which version, in two kinds never added up (docs/releases.md "Two kinds
 * of installs, never mixed"): by address (distinct clients a day by the installed version their update
 * checks' User-Agent names, core/releases/release-watch.ts) and by install id (distinct install ids a day
 * that pinged POST /installs, apps on the update files); the share on the newest release in each, and
 * reviews and bug reports by the app version they name, per UTC day. Labels are bounded: a version this
 * server knows (a stored release or the baseline), `other`, or `none` (no product token, no appVersion); an
 * install id counts only for a live release or the baseline.
 *
 * @module
 */
import * as v from 'valibot';
import type { InstallCount } from '../ports/install-store.ts';
import type { Release, UsageCount, VersionFeedbackCount } from '../ports/store-ports.ts';
import { byVersionDescending } from '../releases/rollout-rule.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const isoDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

const Counts = v.record(v.string(), v.number());
const Reviews = v.record(
  v.string(),
  v.object({ count: v.number(), average: v.pipe(v.nullable(v.number()), v.description('The average rating, to two decimals; null when none gave one.')) }),
);

export const VersionStatsSchema = v.object({
  newest: v.pipe(
    v.object({
      version: v.string(),
      share: v.pipe(
        v.nullable(v.number()),
        v.description('Percent (one decimal) of the installs (distinct clients) naming a version on the last day with any; null when none.'),
      ),
      day: v.nullable(v.string()),
      installIdShare: v.pipe(
        v.nullable(v.number()),
        v.description('Percent (one decimal) of the installs by install id on the last day with any (installIdDay); null when none.'),
      ),
      installIdDay: v.nullable(v.string()),
    }),
    v.description('The newest live release (or the baseline) and the share of installs running it, by address and by install id.'),
  ),
  installed: v.pipe(
    Counts,
    v.description(
      'Installs by installed version over the range: distinct clients checking each day (one a client, version and day, whatever it sends), added up over the days; a known version, other, or none.',
    ),
  ),
  installIds: v.pipe(
    Counts,
    v.description(
      'Installs by install id over the range: distinct install ids a day that said they run each version (POST /installs, apps on the update files), added up over the days; never added to installed.',
    ),
  ),
  reviews: Reviews,
  bugReports: Counts,
  days: v.array(
    v.object({
      day: v.pipe(v.string(), v.description('YYYY-MM-DD, UTC')),
      installed: Counts,
      newestShare: v.nullable(v.number()),
      installIds: Counts,
      newestInstallIdShare: v.nullable(v.number()),
      reviews: Reviews,
      bugReports: Counts,
    }),
  ),
});
export type VersionStats = v.InferOutput<typeof VersionStatsSchema>;

/** The versions this server knows: every stored release and the baseline. */
export function knownVersions(releases: readonly Release[], baseline: string): string[] {
  return [...new Set([...releases.map((r) => r.version), baseline])];
}

/** The newest live release's version, else the baseline's. */
export function newestVersion(releases: readonly Release[], baseline: string): string {
  return [...releases].sort(byVersionDescending).find((r) => r.pulledAt === null)?.version ?? baseline;
}

const add = (counts: Record<string, number>, key: string, n: number) => {
  counts[key] = (counts[key] ?? 0) + n;
};
const sorted = (counts: Record<string, number>) => Object.fromEntries(Object.entries(counts).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));
const shareOf = (counts: Record<string, number>, version: string): number | null => {
  const total = Object.entries(counts).reduce((sum, [label, n]) => (label === 'none' ? sum : sum + n), 0);
  return total === 0 ? null : Math.round(((counts[version] ?? 0) * 1000) / total) / 10;
};

type ReviewSums = Record<string, { count: number; sum: number; rated: number }>;
const averages = (sums: ReviewSums) =>
  Object.fromEntries(
    Object.entries(sums)
      .sort((a, b) => b[1].count - a[1].count || a[0].localeCompare(b[0]))
      .map(([label, s]) => [label, { count: s.count, average: s.rated === 0 ? null : Math.round((s.sum * 100) / s.rated) / 100 }]),
  );

/** The section, from the `installed` usage counts, the installs by install id and the feedback counts by version, every day of the range listed. */
export function versionStats(
  usage: readonly UsageCount[],
  installCounts: readonly InstallCount[],
  feedback: readonly VersionFeedbackCount[],
  newest: string,
  fromDay: number,
  toDay: number,
): VersionStats {
  const installed: Record<string, number> = {};
  const installIds: Record<string, number> = {};
  const bugReports: Record<string, number> = {};
  const reviews: ReviewSums = {};
  type Day = { installed: Record<string, number>; installIds: Record<string, number>; bugReports: Record<string, number>; reviews: ReviewSums };
  const days = new Map<number, Day>();
  const empty = (): Day => ({ installed: {}, installIds: {}, bugReports: {}, reviews: {} });
  const dayOf = (day: number) => {
    let found = days.get(day);
    if (!found) days.set(day, found = empty());
    return found;
  };
  for (const row of usage) {
    if (row.kind !== 'installed') continue;
    add(installed, row.release, row.count);
    add(dayOf(row.day).installed, row.release, row.count);
  }
  // The channels summed: one install id counts once a version and day, whichever channel it named.
  for (const row of installCounts) {
    add(installIds, row.release, row.count);
    add(dayOf(row.day).installIds, row.release, row.count);
  }
  for (const row of feedback) {
    if (row.type === 'bug_report') {
      add(bugReports, row.version, row.count);
      add(dayOf(row.day).bugReports, row.version, row.count);
      continue;
    }
    for (const sums of [reviews, dayOf(row.day).reviews]) {
      const s = (sums[row.version] ??= { count: 0, sum: 0, rated: 0 });
      s.count += row.count;
      s.sum += row.ratingSum;
      s.rated += row.rated;
    }
  }
  const list: VersionStats['days'] = [];
  let latest: { day: string; share: number } | null = null;
  let latestById: { day: string; share: number } | null = null;
  for (let day = fromDay; day <= toDay; day++) {
    const of = days.get(day) ?? empty();
    const newestShare = shareOf(of.installed, newest);
    if (newestShare !== null) latest = { day: isoDay(day), share: newestShare };
    const newestInstallIdShare = shareOf(of.installIds, newest);
    if (newestInstallIdShare !== null) latestById = { day: isoDay(day), share: newestInstallIdShare };
    list.push({
      day: isoDay(day),
      installed: sorted(of.installed),
      newestShare,
      installIds: sorted(of.installIds),
      newestInstallIdShare,
      reviews: averages(of.reviews),
      bugReports: sorted(of.bugReports),
    });
  }
  return {
    newest: {
      version: newest,
      share: latest?.share ?? null,
      day: latest?.day ?? null,
      installIdShare: latestById?.share ?? null,
      installIdDay: latestById?.day ?? null,
    },
    installed: sorted(installed),
    installIds: sorted(installIds),
    reviews: averages(reviews),
    bugReports: sorted(bugReports),
    days: list,
  };
}
