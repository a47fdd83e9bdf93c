/**
 * The targets of a channel's update files (issue 54): each listed release is one target, its installer's
 * length and SHA-256, and in `custom` what the app needs to decide on its own whether it is offered it now
 * (core/tuf/cohort.ts): the rollout schedule in basis points, the halt, and its line's cohort seed.
 *
 * Listed, of the live releases with a digest and a size: the newest whose schedule ends at 10000 basis
 * points and is not halted (the floor), every release above it (ramping, or halted: `haltedAt` tells the
 * app to go no further), and the newest of each major.minor line older than the floor's. With no floor,
 * every one. The floor is found from the schedule, not the clock, so the targets change only when the
 * releases do: while a plan towards 100 % runs, its release is the floor and the one before it is not
 * listed (an install outside the ramp's cohort keeps its version until its step comes).
 *
 * @module
 */
import { byVersionDescending, clampRollout, compareMsiVersions, versionFields } from '../releases/rollout-rule.ts';
import type { Release } from '../ports/release-store.ts';
import { isHex } from '../formats/hex.ts';
import type { TargetFile } from './metadata.ts';
import { LONE_SURROGATE } from '../formats/lone-surrogate.ts';

/** One step of a schedule: from `at` on, `basisPoints` of 10000 installs of the line are offered the release. */
export interface ScheduleStep {
  /** ISO 8601 (`Date.prototype.toISOString`). */
  at: string;
  /** 0-10000. */
  basisPoints: number;
}

/** What a release target carries in `custom`. */
export interface ReleaseCustom {
  version: string;
  /** The installer's address. */
  url: string;
  /** ISO 8601. */
  publishedAt: string;
  notes: string | null;
  /** Plain text, one line, at most 280 characters. */
  summary: string;
  critical: boolean;
  /** The steps in time order; the last one whose `at` has come is in force (core/tuf/cohort.ts). */
  schedule: ScheduleStep[];
  /** ISO 8601 when its ramp was held, or null: no step after it applies. */
  haltedAt: string | null;
  /** The cohort seed of its major.minor line, hex. */
  seed: string;
}

export type ReleaseTarget = TargetFile<ReleaseCustom>;

export interface FeedOptions {
  /** A release's summary (plain text), or null or undefined for none. */
  summaryOf(version: string): string | null | undefined;
  /** The cohort seed (hex) of a major.minor line, such as "2.6": one per line, so a hotfix reaches the same installs first. */
  seedOf(line: string): string;
}

/** The most characters of a summary. */
export const SUMMARY_MAX = 280;

const TARGET_NAME = /^[A-Za-z0-9._-]{1,128}$/;
const SHA256 = /^[0-9a-f]{64}$/;

/** A version's major.minor line, such as "2.6". */
export function versionLine(version: string): string {
  const [major, minor] = versionFields(version);
  return `${major}.${minor}`;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** A release's schedule: its plan's steps, else one step at publication with its rollout (both in basis points, as stored). */
export function scheduleOf(release: Pick<Release, 'ramp' | 'publishedAt' | 'rolloutBasisPoints'>): ScheduleStep[] {
  const { ramp } = release;
  if (ramp === null || ramp.basisPoints.length === 0) return [{ at: iso(release.publishedAt), basisPoints: clampRollout(release.rolloutBasisPoints) }];
  return ramp.basisPoints.map((rollout, i) => ({ at: iso(ramp.startAt + i * ramp.everyMs), basisPoints: clampRollout(rollout) }));
}

/** A summary as targets carry it: whitespace and control characters made single spaces, lone surrogates replaced, cut to 280 characters. */
export function plainSummary(text: string): string {
  const oneLine = text.replace(/[\s\u0000-\u001f\u007f]+/g, ' ').trim()
    .replace(new RegExp(LONE_SURROGATE, 'g'), '\ufffd');
  return Array.from(oneLine).slice(0, SUMMARY_MAX).join('').trimEnd();
}

const fallbackName = (release: Release) => `installer-${release.version}.msi`;

/** The last segment of the installer address's path, when it is a plain file name. */
function basenameOf(msiUrl: string): string | null {
  try {
    const name = new URL(msiUrl).pathname.split('/').pop() ?? '';
    return TARGET_NAME.test(name) ? name : null;
  } catch {
    return null;
  }
}

/** Each release's target name: its installer's file name when no other listed release would have the same name, else `installer-{version}.msi`. */
function targetNames(listed: readonly Release[]): Map<Release, string> {
  const names = new Map(listed.map((release) => [release, basenameOf(release.msiUrl) ?? fallbackName(release)]));
  for (let changed = true; changed;) {
    changed = false;
    const counts = new Map<string, number>();
    for (const name of names.values()) counts.set(name, (counts.get(name) ?? 0) + 1);
    for (const [release, name] of names) {
      if ((counts.get(name) ?? 0) > 1 && name !== fallbackName(release)) {
        names.set(release, fallbackName(release));
        changed = true;
      }
    }
  }
  return names;
}

/**
 * The releases listed, highest version first (see the module comment). With `now`, the floor is the newest
 * release whose schedule has reached 10000 by then (a ramp still under way is listed above the release it
 * will replace, which stays listed for the installs outside its steps); without, the newest whose
 * schedule ends at 10000.
 */
function listedReleases(releases: readonly Release[], now?: number): Release[] {
  const candidates = releases
    .filter((release) => release.pulledAt === null && release.sha256 !== null && SHA256.test(release.sha256))
    .filter((release) => release.size !== null && Number.isSafeInteger(release.size) && release.size >= 0)
    .sort(byVersionDescending);
  const reached = (release: Release) => {
    const steps = scheduleOf(release).filter((step) => now === undefined || Date.parse(step.at) <= now);
    return steps.at(-1)?.basisPoints === 10000;
  };
  const floorIndex = candidates.findIndex((release) => release.haltedAt === null && reached(release));
  if (floorIndex < 0) return candidates;
  const floor = candidates[floorIndex]!;
  const listed = candidates.slice(0, floorIndex + 1);
  const linesSeen = new Set([versionLine(floor.version)]);
  for (const release of candidates.slice(floorIndex + 1)) {
    const line = versionLine(release.version);
    if (linesSeen.has(line) || compareMsiVersions(`${line}.0`, `${versionLine(floor.version)}.0`) >= 0) continue;
    linesSeen.add(line);
    listed.push(release);
  }
  return listed;
}

/**
 * The `targets` of a channel's targets role.
 *
 * @param releases Every release of the channel (pulled ones and those without a digest or size are left out).
 * @param options The summaries and the seeds of the lines.
 * @param now When the targets are signed: the floor is the newest release at 10000 by then (`listedReleases`).
 * @returns Target name to target, as `buildTargets` takes them.
 * @throws Error when a line's seed is not hex.
 */
export function feedTargets(releases: readonly Release[], options: FeedOptions, now?: number): Record<string, ReleaseTarget> {
  const listed = listedReleases(releases, now);
  const names = targetNames(listed);
  const targets: Record<string, ReleaseTarget> = {};
  for (const release of listed) {
    const line = versionLine(release.version);
    const seed = options.seedOf(line);
    if (seed.length === 0 || !isHex(seed)) throw new Error(`feed: the seed of line ${line} is not hex`);
    targets[names.get(release)!] = {
      length: release.size!,
      hashes: { sha256: release.sha256! },
      custom: {
        version: release.version,
        url: release.msiUrl,
        publishedAt: iso(release.publishedAt),
        notes: release.notesUrl,
        summary: plainSummary(options.summaryOf(release.version) ?? ''),
        critical: release.critical,
        schedule: scheduleOf(release),
        haltedAt: release.haltedAt === null ? null : iso(release.haltedAt),
        seed: seed.toLowerCase(),
      },
    };
  }
  return targets;
}
