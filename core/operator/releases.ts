/**
 * The operator's release operations: list, publish, widen (or narrow) the rollout, pull, restore. Each
 * change is written to the audit trail and the log, reports its event (release.published,
 * release.rolled_out, release.pulled, release.restored) with it, and is served by every instance within
 * a second (core/releases.ts). Which client gets which release is the rule of core/rollout-rule.ts.
 *
 * @module
 */
import { readJsonObject } from '../body.ts';
import { json, type CoreRequest } from '../http.ts';
import type { Release } from '../releases.ts';
import { baselineShare, byVersionDescending, rolloutLadder, servedShares } from '../rollout-rule.ts';
import { parseOrThrow } from '../validate.ts';
import type { EventType } from '../webhooks/ports.ts';
import { recordChange, type OperatorContext, type OperatorHandler } from './context.ts';
import { OperatorError } from './errors.ts';
import { PublishReleaseSchema, RolloutSchema } from './release-fields.ts';
import { refuseDowngrade } from './release-order.ts';

export { PublishReleaseSchema, RolloutSchema } from './release-fields.ts';

/** A release as the operator API shows it: times as ISO 8601, and the share of clients it is served to now. */
export function releaseView(release: Release, servedPercent: number) {
  return {
    version: release.version,
    msiUrl: release.msiUrl,
    notesUrl: release.notesUrl,
    rolloutPercent: release.rolloutPercent,
    servedPercent,
    sha256: release.sha256,
    size: release.size,
    critical: release.critical,
    publishedAt: new Date(release.publishedAt).toISOString(),
    pulledAt: release.pulledAt === null ? null : new Date(release.pulledAt).toISOString(),
  };
}

/** The event of a change, written with it (its data: the release as the API shows it, served share included). */
const eventOf = (type: EventType, at: number, served: (release: Release) => number) => (release: Release) => ({
  event: { type, data: releaseView(release, served(release)) },
  at,
});

/** The share a release is served once `release` replaces its stored self. */
const servedAfter = (releases: readonly Release[]) => (release: Release): number =>
  servedShares(releases.map((r) => (r.version === release.version ? release : r))).get(release.version) ?? 0;

/** Records a change in the audit trail and the log, and makes this instance serve it at once. */
async function changed(context: OperatorContext, request: CoreRequest, action: string, target: string): Promise<void> {
  await recordChange(context, request, action, target);
  await context.releases.refresh();
}

/** The stored releases and the one the path names (404 when none has that version). */
async function named(context: OperatorContext, params: Record<string, string>): Promise<{ releases: Release[]; release: Release }> {
  const version = decodeURIComponent(params['version'] ?? '');
  const releases = version.length <= 64 ? await context.storage.releases.listReleases() : [];
  const release = releases.find((r) => r.version === version);
  const shown = /^[\w.-]{1,64}$/.test(version) ? version : JSON.stringify(version.slice(0, 64));
  if (!release) throw new OperatorError('release_not_found', `No release has version ${shown}.`);
  return { releases, release };
}

export function listReleases(context: OperatorContext): OperatorHandler {
  return async () => {
    const releases = (await context.storage.releases.listReleases()).sort(byVersionDescending);
    const shares = servedShares(releases);
    const baseline = await context.releases.baseline();
    return json(200, {
      releases: releases.map((release) => releaseView(release, shares.get(release.version) ?? 0)),
      baseline: { version: baseline.version, msiUrl: baseline.msiUrl, servedPercent: baselineShare(rolloutLadder(releases)) },
    });
  };
}

export function publishRelease(context: OperatorContext): OperatorHandler {
  return async (request) => {
    const input = parseOrThrow(PublishReleaseSchema, readJsonObject(request, context.bodyLimit, true));
    const release: Release = { ...input, sha256: input.sha256?.toLowerCase() ?? null, publishedAt: context.clock.now(), pulledAt: null };
    // What was stored when the store admitted it: the check and the insert are one step (no concurrent publish between).
    let before: readonly Release[] = [];
    const admit = (stored: readonly Release[]) => {
      refuseDowngrade(input.version, stored);
      before = stored;
    };
    const emit = (published: Release) => eventOf('release.published', release.publishedAt, servedAfter([...before, release]))(published);
    if (!(await context.storage.releases.publishRelease(release, emit, admit))) {
      throw new OperatorError('release_exists', `Version ${input.version} was published before.`);
    }
    await changed(context, request, 'release.published', `${input.version} at ${input.rolloutPercent}%`);
    return json(201, releaseView(release, servedAfter([...before, release])(release)));
  };
}

export function setRollout(context: OperatorContext): OperatorHandler {
  return async (request, params) => {
    const { releases, release: before } = await named(context, params);
    const { rolloutPercent } = parseOrThrow(RolloutSchema, readJsonObject(request, context.bodyLimit, true));
    const pulled = () => new OperatorError('release_pulled', `${before.version} is pulled: a rollout change would not reach any client.`);
    if (before.pulledAt !== null) throw pulled();
    const served = servedAfter(releases);
    const emit = rolloutPercent === before.rolloutPercent ? undefined : eventOf('release.rolled_out', context.clock.now(), served);
    const release = await context.storage.releases.setRollout(before.version, rolloutPercent, emit);
    // Pulled meanwhile, through another instance.
    if (!release) throw pulled();
    await changed(context, request, 'release.rollout', `${release.version} at ${rolloutPercent}%`);
    return json(200, releaseView(release, served(release)));
  };
}

export function pullRelease(context: OperatorContext): OperatorHandler {
  return async (request, params) => {
    const { releases, release: before } = await named(context, params);
    const at = context.clock.now();
    const served = servedAfter(releases);
    const emit = before.pulledAt === null ? eventOf('release.pulled', at, served) : undefined;
    const release = await context.storage.releases.pullRelease(before.version, at, emit);
    if (!release) throw new OperatorError('release_not_found', `No release has version ${before.version}.`);
    await changed(context, request, 'release.pulled', release.version);
    return json(200, releaseView(release, served(release)));
  };
}

export function restoreRelease(context: OperatorContext): OperatorHandler {
  return async (request, params) => {
    const { releases, release: before } = await named(context, params);
    const served = servedAfter(releases);
    const emit = before.pulledAt !== null ? eventOf('release.restored', context.clock.now(), served) : undefined;
    const release = await context.storage.releases.restoreRelease(before.version, emit);
    if (!release) throw new OperatorError('release_not_found', `No release has version ${before.version}.`);
    await changed(context, request, 'release.restored', release.version);
    return json(200, releaseView(release, served(release)));
  };
}
