/**
 * The app's rollout rule over the update files (issue 54), written once: the desktop app decides from a
 * verified targets role which release it is offered, with no request that names it.
 *
 * Each install has a random id (16 bytes, base64url) and, per major.minor line, a bucket in [0, 10000):
 * SHA-256 of the line's seed and the id. A release is offered when its schedule's basis points in force
 * exceed the bucket. One seed per line means a hotfix's first step reaches the installs its release's
 * first step reached.
 *
 * @module
 */
import { fromHex } from '../formats/hex.ts';
import { INSTALL_ID } from '../schemas/update-names.ts';
import { byVersionDescending, compareMsiVersions } from '../releases/rollout-rule.ts';
import type { ReleaseCustom, ReleaseTarget } from './feed.ts';

/**
 * How long a timestamp is signed for: 24 hours. Its signing time is its `expires` less this, so an app
 * never evaluates a schedule at a time before the timestamp it trusts was signed (`evaluationTime`).
 */
export const TIMESTAMP_LIFETIME_MS = 24 * 60 * 60 * 1000;

const encoder = new TextEncoder();

/** Whether an install id is 16 bytes in base64url without padding (22 characters, the last holding 2 bits). */
export function installIdOk(id: string): boolean {
  return INSTALL_ID.test(id);
}

/**
 * An install's bucket for a line: the big-endian uint64 of the first 8 bytes of SHA-256(seed bytes ||
 * UTF-8 install id), modulo 10000.
 *
 * @param seedHex The line's seed (`custom.seed`).
 * @param installId The install's id.
 * @returns 0-9999.
 */
export async function cohortBucket(seedHex: string, installId: string): Promise<number> {
  const seed = fromHex(seedHex);
  const id = encoder.encode(installId);
  const input = new Uint8Array(seed.length + id.length);
  input.set(seed);
  input.set(id, seed.length);
  const digest = new DataView(await crypto.subtle.digest('SHA-256', input));
  return Number(digest.getBigUint64(0, false) % 10000n);
}

/**
 * The basis points a release is offered to at a time: those of the last step whose `at` has come, 0
 * before the first. A halted release is evaluated at its halt when that is earlier: no later step applies.
 *
 * @param custom The target's `custom`.
 * @param atMs The evaluation time (`evaluationTime`), epoch ms.
 */
export function basisPointsAt(custom: Pick<ReleaseCustom, 'schedule' | 'haltedAt'>, atMs: number): number {
  const at = custom.haltedAt === null ? atMs : Math.min(atMs, Date.parse(custom.haltedAt));
  let basisPoints = 0;
  for (const step of custom.schedule) if (Date.parse(step.at) <= at) basisPoints = step.basisPoints;
  return basisPoints;
}

/**
 * The release an install is offered: the highest-version target above the installed version whose basis
 * points at `atMs` exceed the install's bucket for its line's seed.
 *
 * @param targets The verified targets role's `targets`.
 * @param installedVersion The version installed.
 * @param installId The install's id.
 * @param atMs The evaluation time (`evaluationTime`).
 * @returns The target's name and the target, or null: stay.
 */
export async function chooseTarget(
  targets: Readonly<Record<string, ReleaseTarget>>,
  installedVersion: string,
  installId: string,
  atMs: number,
): Promise<{ name: string; target: ReleaseTarget } | null> {
  const seeds = [...new Set(Object.values(targets).map((target) => target.custom.seed))];
  const buckets = new Map(await Promise.all(seeds.map(async (seed) => [seed, await cohortBucket(seed, installId)] as const)));
  return chooseTargetByBucket(targets, installedVersion, (seed) => buckets.get(seed)!, atMs);
}

/**
 * `chooseTarget` over buckets the app already has: an install's bucket for a line never changes, so an
 * app (or a simulation of a million of them) may compute it once per seed and decide synchronously.
 *
 * @param bucketOf The install's bucket (`cohortBucket`) for a line's seed.
 */
export function chooseTargetByBucket(
  targets: Readonly<Record<string, ReleaseTarget>>,
  installedVersion: string,
  bucketOf: (seedHex: string) => number,
  atMs: number,
): { name: string; target: ReleaseTarget } | null {
  const newer = Object.entries(targets)
    .filter(([, target]) => compareMsiVersions(target.custom.version, installedVersion) > 0)
    .sort(([, a], [, b]) => byVersionDescending(a.custom, b.custom));
  for (const [name, target] of newer) {
    const basisPoints = basisPointsAt(target.custom, atMs);
    if (basisPoints > 0 && bucketOf(target.custom.seed) < basisPoints) return { name, target };
  }
  return null;
}

/**
 * The time an app evaluates schedules at: its clock, or the trusted timestamp's signing time when the
 * clock is behind it (a clock set back does not undo a step).
 *
 * @param clockMs The app's clock.
 * @param timestampExpiresMs The trusted timestamp's `expires`.
 * @param timestampLifetimeMs How long timestamps are signed for (`TIMESTAMP_LIFETIME_MS`).
 */
export function evaluationTime(clockMs: number, timestampExpiresMs: number, timestampLifetimeMs: number): number {
  return Math.max(clockMs, timestampExpiresMs - timestampLifetimeMs);
}
