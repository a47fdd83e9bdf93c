/**
 * The operator's release operations: list, publish, widen (or narrow) the rollout, pull, restore. Each
 * change is written to the audit trail and the log, reports its event (release.published,
 * release.rolled_out, release.pulled, release.restored) with it, and is served by every instance within
 * a second (core/releases/release-view.ts). Which client gets which release is the rule of core/releases/rollout-rule.ts.
 *
 * @module
 */
import * as v from 'valibot';
import type { Release } from '../releases/release-view.ts';
import { baselineShare, byVersionDescending, rolloutLadder, servedShares } from '../releases/rollout-rule.ts';
import type { EventType } from '../ports/events.ts';
import { auditTrail, type AuditTrail, type OperatorContext } from './context.ts';
import { OperatorError } from './errors.ts';
import { IsoTime } from './json-views.ts';
import { defineOperation } from './operation.ts';
import { PublishReleaseSchema, RolloutSchema } from './release-fields.ts';
import { refuseDowngrade } from './release-order.ts';

export { PublishReleaseSchema, RolloutSchema } from './release-fields.ts';

/** A release as the operator API shows it: times as ISO 8601, and the share of clients it is served to now. */
export const ReleaseViewSchema = v.object({
  version: v.string(),
  msiUrl: v.string(),
  notesUrl: v.nullable(v.string()),
  rolloutPercent: v.number(),
  servedPercent: v.pipe(v.number(), v.description('The share of clients served this release now (rule: docs/releases.md).')),
  sha256: v.nullable(v.string()),
  size: v.nullable(v.number()),
  critical: v.boolean(),
  publishedAt: IsoTime,
  pulledAt: v.nullable(IsoTime),
});
export type ReleaseJson = v.InferOutput<typeof ReleaseViewSchema>;

/** A release as the operator API shows it. */
export function releaseView(release: Release, servedPercent: number): ReleaseJson {
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

/** After a change (its audit row written with it): logs it, and makes this instance serve it at once. */
async function changed(context: OperatorContext, trail: AuditTrail): Promise<void> {
  trail.logged();
  await context.releases.refresh();
}

/** An audit entry that says the same whatever the store answers. */
const entry = (action: string, target: string) => () => ({ action, target });

/** The stored releases and the one the path names (404 when none has that version). */
async function named(context: OperatorContext, version: string): Promise<{ releases: Release[]; release: Release }> {
  const releases = version.length <= 64 ? await context.storage.releases.listReleases() : [];
  const release = releases.find((r) => r.version === version);
  const shown = /^[\w.-]{1,64}$/.test(version) ? version : JSON.stringify(version.slice(0, 64));
  if (!release) throw new OperatorError('release_not_found', `No release has version ${shown}.`);
  return { releases, release };
}

export const listReleases = defineOperation({
  operationId: 'listReleases',
  method: 'GET',
  path: '/releases',
  summary:
    'Every release, highest version first, with its rollout, the share of clients it is served to now (servedPercent) ' +
    'and whether it was pulled; and the baseline.',
  output: v.object({
    releases: v.array(ReleaseViewSchema),
    baseline: v.object({ version: v.string(), msiUrl: v.string(), servedPercent: v.number() }),
  }),
  status: 200,
  errors: [],
  async run(context) {
    const releases = (await context.storage.releases.listReleases()).sort(byVersionDescending);
    const shares = servedShares(releases);
    const baseline = await context.releases.baseline();
    return {
      releases: releases.map((release) => releaseView(release, shares.get(release.version) ?? 0)),
      baseline: { version: baseline.version, msiUrl: baseline.msiUrl, servedPercent: baselineShare(rolloutLadder(releases)) },
    };
  },
});

export const publishRelease = defineOperation({
  operationId: 'publishRelease',
  method: 'POST',
  path: '/releases',
  summary:
    'Publish a release above every published version to a share of the clients (rolloutPercent: that share is offered it or a newer one), ' +
    "with the MSI's sha256 and size.",
  body: PublishReleaseSchema,
  output: ReleaseViewSchema,
  status: 201,
  errors: ['release_exists', 'release_not_higher', 'release_same_msi_version'],
  async run(context, { body }, caller) {
    const release: Release = { ...body, sha256: body.sha256?.toLowerCase() ?? null, publishedAt: context.clock.now(), pulledAt: null };
    // What was stored when the store admitted it: the check and the insert are one step (no concurrent publish between).
    let before: readonly Release[] = [];
    const admit = (stored: readonly Release[]) => {
      refuseDowngrade(body.version, stored);
      before = stored;
    };
    const emit = (published: Release) => eventOf('release.published', release.publishedAt, servedAfter([...before, release]))(published);
    const trail = auditTrail(context, caller);
    if (!(await context.storage.releases.publishRelease(release, trail.with(entry('release.published', `${body.version} at ${body.rolloutPercent}%`), emit), admit))) {
      throw new OperatorError('release_exists', `Version ${body.version} was published before.`);
    }
    await changed(context, trail);
    return releaseView(release, servedAfter([...before, release])(release));
  },
});

export const setReleaseRollout = defineOperation({
  operationId: 'setReleaseRollout',
  method: 'POST',
  path: '/releases/:version/rollout',
  summary: 'Widen (or narrow) the share of clients a release is served to.',
  body: RolloutSchema,
  output: ReleaseViewSchema,
  status: 200,
  errors: ['release_not_found', 'release_pulled'],
  async run(context, { params, body: { rolloutPercent } }, caller) {
    const { releases, release: before } = await named(context, params.version);
    const pulled = () => new OperatorError('release_pulled', `${before.version} is pulled: a rollout change would not reach any client.`);
    if (before.pulledAt !== null) throw pulled();
    const served = servedAfter(releases);
    const emit = rolloutPercent === before.rolloutPercent ? undefined : eventOf('release.rolled_out', context.clock.now(), served);
    const trail = auditTrail(context, caller);
    const release = await context.storage.releases.setRollout(before.version, rolloutPercent, trail.with(entry('release.rollout', `${before.version} at ${rolloutPercent}%`), emit));
    // Pulled meanwhile, through another instance.
    if (!release) throw pulled();
    await changed(context, trail);
    return releaseView(release, served(release));
  },
});

export const pullRelease = defineOperation({
  operationId: 'pullRelease',
  method: 'POST',
  path: '/releases/:version/pull',
  summary: 'Pull a release: no client gets it until it is restored; its clients get the next release below that serves them.',
  output: ReleaseViewSchema,
  status: 200,
  errors: ['release_not_found'],
  async run(context, { params }, caller) {
    const { releases, release: before } = await named(context, params.version);
    const at = context.clock.now();
    const served = servedAfter(releases);
    const emit = before.pulledAt === null ? eventOf('release.pulled', at, served) : undefined;
    const trail = auditTrail(context, caller);
    const release = await context.storage.releases.pullRelease(before.version, at, trail.with(entry('release.pulled', before.version), emit));
    if (!release) throw new OperatorError('release_not_found', `No release has version ${before.version}.`);
    await changed(context, trail);
    return releaseView(release, served(release));
  },
});

export const restoreRelease = defineOperation({
  operationId: 'restoreRelease',
  method: 'POST',
  path: '/releases/:version/restore',
  summary: 'Restore a pulled release: it is served again with its rollout percent.',
  output: ReleaseViewSchema,
  status: 200,
  errors: ['release_not_found'],
  async run(context, { params }, caller) {
    const { releases, release: before } = await named(context, params.version);
    const served = servedAfter(releases);
    const emit = before.pulledAt !== null ? eventOf('release.restored', context.clock.now(), served) : undefined;
    const trail = auditTrail(context, caller);
    const release = await context.storage.releases.restoreRelease(before.version, trail.with(entry('release.restored', before.version), emit));
    if (!release) throw new OperatorError('release_not_found', `No release has version ${before.version}.`);
    await changed(context, trail);
    return releaseView(release, served(release));
  },
});
