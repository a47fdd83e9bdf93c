/**
 * The one rollout rule (docs/releases.md), written once for update answers, download redirects, the
 * operator's list and the Releases page: releases are ordered by version as Windows Installer compares
 * them; each client has one stable bucket; a client is served the highest-version live (not pulled)
 * release whose rollout is above its bucket, and the baseline when none is.
 *
 * Rollouts are kept in basis points (0-10000). The update files' cohorts (core/tuf/cohort.ts) have 10000
 * buckets and read them as they are; an update check of `/version` has 100 buckets, so a rollout reaches
 * it rounded down to a whole percent (`wholePercent`: 0.5 % is 0 there, 12.34 % is 12).
 *
 * So the live releases, highest version first, cut the buckets into contiguous rungs: a release serves the
 * buckets from the largest rollout of the releases above it up to its own (nothing when that is not
 * more), and the baseline serves the buckets from the largest rollout up to all of them.
 *
 * A client's bucket (docs/releases.md, rule 2, `createRolloutBucket`): SipHash-2-4 of its client key under
 * a key drawn from the stored voter secret, modulo 100. Stable for a client, alike on every instance
 * sharing the secret, and unknown to anyone without it. SipHash is made for exactly this (a keyed hash of
 * a short, caller-chosen text) and costs an update check about a tenth of the HMAC it replaced (issue 31).
 *
 * @module
 */
import { createSipHash24, modulo } from '../clients/siphash.ts';

/**
 * What the voter secret's HMAC-SHA-256 is taken of to make the SipHash key (its first 16 bytes). No
 * client key can be this text (client keys are addresses), so no stored voter id is ever the key.
 */
export const ROLLOUT_KEY_LABEL = 'converter-site-api rollout bucket key (SipHash-2-4)';

/**
 * Creates the bucket function.
 *
 * @param secretMac HMAC-SHA-256 under the voter secret (core/clients/keyed-hash.ts createKeyedMac).
 * @returns A client key's bucket, 0-99.
 */
export function createRolloutBucket(secretMac: (subject: string) => Uint8Array): (clientKey: string) => number {
  const hash = createSipHash24(secretMac(ROLLOUT_KEY_LABEL).slice(0, 16));
  return (clientKey) => modulo(hash(clientKey), 100);
}

/** What the rule needs of a release. */
export interface RolloutEntry {
  version: string;
  rolloutBasisPoints: number;
  pulledAt: number | null;
}

/** All clients, in basis points. */
export const ALL_BASIS_POINTS = 10_000;

/** How many buckets an update check of `/version` has (its bucket is 0-99). */
export const PERCENT_BUCKETS = 100;

/** A rollout held to 0-10000 basis points. */
export const clampRollout = (basisPoints: number): number => Math.min(ALL_BASIS_POINTS, Math.max(0, basisPoints));

/** A rollout in basis points as a whole percent, rounded down: what a `/version` check is served by. */
export const wholePercent = (basisPoints: number): number => Math.floor(clampRollout(basisPoints) / 100);

/** One release and the buckets it serves, [from, to). */
export interface Rung<R> {
  release: R;
  from: number;
  to: number;
}

/**
 * The four numeric fields of a version, as far as it has them (missing ones are 0). Releases stored
 * before versions were checked may carry a tag ("2.5.0-beta.1"): only its leading numbers count.
 */
export function versionFields(version: string): [number, number, number, number] {
  const match = /^(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:\.(\d+))?/.exec(version);
  const field = (i: number) => Number(match?.[i] ?? 0);
  return [field(1), field(2), field(3), field(4)];
}

/**
 * Compares two versions as Windows Installer does: major, minor and build; the fourth field is ignored.
 *
 * @returns Negative when `a` is lower, 0 when Windows Installer sees the same version, positive when higher.
 */
export function compareMsiVersions(a: string, b: string): number {
  const [x, y] = [versionFields(a), versionFields(b)];
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
}

/** The order releases are listed and served in: highest version first (then the fourth field, then the text). */
export function byVersionDescending(a: { version: string }, b: { version: string }): number {
  const [x, y] = [versionFields(a.version), versionFields(b.version)];
  return compareMsiVersions(b.version, a.version) || y[3] - x[3] || (a.version < b.version ? 1 : a.version > b.version ? -1 : 0);
}

/**
 * The rungs of the live releases, highest version first; a release with no bucket of its own has none.
 *
 * @param buckets How many buckets: 10000 (basis points, the update files' cohorts) or 100 (a `/version`
 *   check's, each rollout rounded down to a whole percent).
 */
export function rolloutLadder<R extends RolloutEntry>(releases: readonly R[], buckets: number = ALL_BASIS_POINTS): Rung<R>[] {
  const live = releases.filter((release) => release.pulledAt === null).sort(byVersionDescending);
  const rungs: Rung<R>[] = [];
  let reached = 0;
  for (const release of live) {
    const to = Math.floor(clampRollout(release.rolloutBasisPoints) * buckets / ALL_BASIS_POINTS);
    if (to <= reached) continue;
    rungs.push({ release, from: reached, to });
    reached = to;
  }
  return rungs;
}

/** The release a bucket is served from a ladder, or undefined for the baseline. */
export function servedFrom<R>(ladder: readonly Rung<R>[], bucket: number): R | undefined {
  for (const rung of ladder) if (bucket < rung.to) return rung.release;
  return undefined;
}

/** The share of buckets the baseline is served to, in basis points on a ladder of basis points. */
export function baselineShare(ladder: readonly Rung<unknown>[]): number {
  return ALL_BASIS_POINTS - (ladder[ladder.length - 1]?.to ?? 0);
}

/** Per version, the share of clients (basis points) it is served to now: 0 for a superseded or pulled release. */
export function servedShares(releases: readonly RolloutEntry[]): Map<string, number> {
  const shares = new Map(releases.map((release) => [release.version, 0]));
  for (const rung of rolloutLadder(releases)) shares.set(rung.release.version, rung.to - rung.from);
  return shares;
}

/** One group of clients a change moves: `basisPoints` of clients go from one version to another (null: the baseline). */
export interface Move {
  basisPoints: number;
  from: string | null;
  to: string | null;
}

/** What a change of the releases does to the clients, bucket by bucket: the groups that are served another release. */
export function movesBetween(before: readonly RolloutEntry[], after: readonly RolloutEntry[]): Move[] {
  const [was, will] = [rolloutLadder(before), rolloutLadder(after)];
  // The rungs' edges cut the buckets into spans each served one release before and one after.
  const edges = [...new Set([0, ALL_BASIS_POINTS, ...[...was, ...will].flatMap((rung) => [rung.from, rung.to])])].sort((a, b) => a - b);
  const moves = new Map<string, Move>();
  for (let i = 0; i + 1 < edges.length; i++) {
    const from = servedFrom(was, edges[i]!)?.version ?? null;
    const to = servedFrom(will, edges[i]!)?.version ?? null;
    if (from === to) continue;
    const key = `${from}\n${to}`;
    const span = edges[i + 1]! - edges[i]!;
    const move = moves.get(key);
    if (move) move.basisPoints += span;
    else moves.set(key, { basisPoints: span, from, to });
  }
  return [...moves.values()];
}
