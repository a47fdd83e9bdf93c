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
import { inForce, percentInForce } from '../releases/ramp-plan.ts';
import { eventOf, releaseView, ReleaseViewSchema, servedAfter } from '../releases/release-json.ts';
import { downgradeRefusal, rampOf } from '../releases/publish-checks.ts';
import { auditTrail, type AuditTrail, type OperatorContext } from './context.ts';
import { OperatorError } from './errors.ts';
import { defineOperation } from './operation.ts';
import { PublishReleaseSchema, RolloutSchema } from './release-fields.ts';

export { PublishReleaseSchema, RolloutSchema } from './release-fields.ts';
export { releaseView, ReleaseViewSchema, type ReleaseJson } from '../releases/release-json.ts';

/** After a change (its audit row written with it): logs it, and makes this instance serve it at once. */
export async function changed(context: OperatorContext, trail: AuditTrail): Promise<void> {
  trail.logged();
  await context.releases.refresh();
}

/** An audit entry that says the same whatever the store answers. */
const entry = (action: string, target: string) => () => ({ action, target });

/** The stored releases and the one the path names (404 when none has that version). */
export async function named(context: OperatorContext, version: string): Promise<{ releases: Release[]; release: Release }> {
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
    const now = context.clock.now();
    const releases = (await context.storage.releases.listReleases()).sort(byVersionDescending);
    const shares = servedShares(inForce(releases, now));
    const baseline = await context.releases.baseline();
    return {
      releases: releases.map((release) => releaseView(release, shares.get(release.version) ?? 0, now)),
      baseline: { version: baseline.version, msiUrl: baseline.msiUrl, servedPercent: baselineShare(rolloutLadder(inForce(releases, now))) },
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
    const publishedAt = context.clock.now();
    const ramp = rampOf(body.rolloutPercent, body.ramp, publishedAt);
    const release: Release = { ...body, sha256: body.sha256?.toLowerCase() ?? null, publishedAt, pulledAt: null, ramp, haltedAt: null, haltReason: null, announcedStep: 0 };
    // What was stored when the store admitted it: the check and the insert are one step (no concurrent publish between).
    let before: readonly Release[] = [];
    const admit = (stored: readonly Release[]) => {
      const refusal = downgradeRefusal(body.version, stored);
      if (refusal) throw new OperatorError(refusal.code, refusal.message);
      before = stored;
    };
    const emit = (published: Release) => eventOf('release.published', publishedAt, servedAfter([...before, release], publishedAt))(published);
    const plan = ramp ? ` on a ramp of ${ramp.steps.join(', ')}% every ${ramp.everyMs / 60_000} minutes` : '';
    const trail = auditTrail(context, caller);
    if (!(await context.storage.releases.publishRelease(release, trail.with(entry('release.published', `${body.version} at ${body.rolloutPercent}%${plan}`), emit), admit))) {
      throw new OperatorError('release_exists', `Version ${body.version} was published before.`);
    }
    await changed(context, trail);
    return releaseView(release, servedAfter([...before, release], publishedAt)(release), publishedAt);
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
    const now = context.clock.now();
    const served = servedAfter(releases, now);
    const emit = rolloutPercent === percentInForce(before, now) ? undefined : eventOf('release.rolled_out', now, served);
    const ended = before.ramp === null ? '' : ' (its ramp plan ends)';
    const trail = auditTrail(context, caller);
    const release = await context.storage.releases.setRollout(before.version, rolloutPercent, trail.with(entry('release.rollout', `${before.version} at ${rolloutPercent}%${ended}`), emit));
    // Pulled meanwhile, through another instance.
    if (!release) throw pulled();
    await changed(context, trail);
    return releaseView(release, served(release), now);
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
    const served = servedAfter(releases, at);
    // A pull of a pulled release keeps its first time and is answered as it is: no event, no audit row.
    const pulledNow = (release: Release) => release.pulledAt === at && before.pulledAt === null;
    const event = eventOf('release.pulled', at, served);
    const emit = (release: Release) => (pulledNow(release) ? event(release) : null);
    // A plan ends at the step in force: a restore serves that percent.
    const frozen = before.ramp === null ? undefined : percentInForce(before, at);
    const target = frozen === undefined ? before.version : `${before.version} (its ramp plan ends at ${frozen}%)`;
    const trail = auditTrail(context, caller);
    const describe = (release: Release) => (pulledNow(release) ? { action: 'release.pulled', target } : null);
    const release = await context.storage.releases.pullRelease(before.version, at, trail.with(describe, emit), frozen);
    if (!release) throw new OperatorError('release_not_found', `No release has version ${before.version}.`);
    await changed(context, trail);
    return releaseView(release, served(release), at);
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
    const now = context.clock.now();
    const served = servedAfter(releases, now);
    // Restoring a release that is live (and not halted) changes nothing: answered as it is, no event, no audit row.
    const restores = before.pulledAt !== null || before.haltedAt !== null;
    const emit = before.pulledAt !== null ? eventOf('release.restored', now, served) : undefined;
    const trail = auditTrail(context, caller);
    const describe = restores ? entry('release.restored', before.version) : () => null;
    const release = await context.storage.releases.restoreRelease(before.version, trail.with(describe, emit));
    if (!release) throw new OperatorError('release_not_found', `No release has version ${before.version}.`);
    await changed(context, trail);
    return releaseView(release, served(release), now);
  },
});
