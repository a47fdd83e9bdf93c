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
import { baselineShare, byVersionDescending, rolloutLadder } from '../releases/rollout-rule.ts';
import { isMoreStable, releasesOn, STABLE } from '../releases/channels.ts';
import { inForce, rolloutInForce } from '../releases/ramp-plan.ts';
import { channelShares, percentOf, releaseEvent, releaseView, ReleaseViewSchema, servedAfter } from '../releases/release-json.ts';
import { downgradeRefusal, givenRollout, publishedRollout, rolloutOf } from '../releases/publish-checks.ts';
import { publishedRelease, type RampPlan, type ReleaseStore } from '../ports/release-store.ts';
import { type Changed, operatorChange } from './context.ts';
import { OperatorError } from './errors.ts';
import { defineOperation } from './operation.ts';
import { PromoteSchema, PublishReleaseSchema, RolloutSchema } from './release-fields.ts';
import { knownChannel } from './known-channel.ts';

export { PromoteSchema, PublishReleaseSchema, RolloutSchema } from './release-fields.ts';
export { type ReleaseJson, releaseView, ReleaseViewSchema } from '../releases/release-json.ts';

/** A release after a change, and the share it is served to then. */
interface Served {
  release: Release;
  served: number;
}

/** The stored releases and the one the path names (404 when none has that version). */
export async function named(store: Pick<ReleaseStore, 'listReleases'>, version: string): Promise<{ releases: Release[]; release: Release }> {
  const releases = version.length <= 64 ? await store.listReleases() : [];
  const release = releases.find((r) => r.version === version);
  const shown = /^[\w.-]{1,64}$/.test(version) ? version : JSON.stringify(version.slice(0, 64));
  if (!release) throw new OperatorError('release_not_found', `No release has version ${shown}.`);
  return { releases, release };
}

/** " on a ramp of 1, 5, 100% every 1440 minutes", or nothing: how the audit trail says a plan. */
const rampText = (ramp: RampPlan | null): string =>
  ramp ? ` on a ramp of ${ramp.basisPoints.map(percentOf).join(', ')}% every ${ramp.everyMs / 60_000} minutes` : '';

export const listReleases = defineOperation({
  operationId: 'listReleases',
  method: 'GET',
  path: '/releases',
  summary: "Every release, highest version first, with its channel, its rollout, the share of its channel's apps it is served to now " +
    '(servedBasisPoints) and whether it was pulled; the baseline; and the channels, the most stable first.',
  output: v.object({
    releases: v.array(ReleaseViewSchema),
    channels: v.pipe(
      v.array(v.string()),
      v.description('The release channels, the most stable first: each lists its own releases and those of every channel before it.'),
    ),
    baseline: v.object({
      version: v.string(),
      msiUrl: v.string(),
      servedBasisPoints: v.pipe(v.number(), v.description('The share of clients served the baseline, in basis points.')),
      servedPercent: v.pipe(v.number(), v.description('The same share in percent (servedBasisPoints / 100).')),
    }),
  }),
  status: 200,
  errors: [],
  async run(context) {
    const now = context.clock.now();
    const releases = (await context.storage.releases.listReleases()).sort(byVersionDescending);
    const channels = context.updateFiles.names;
    const shares = new Map(channels.map((channel) => [channel, channelShares(releases, now, channels, channel)]));
    const baseline = await context.releases.baseline();
    const baselineServed = baselineShare(rolloutLadder(inForce(releasesOn(channels, STABLE, releases), now)));
    return {
      releases: releases.map((release) => releaseView(release, shares.get(release.channel)?.get(release.version) ?? 0, now)),
      channels: [...channels],
      baseline: { version: baseline.version, msiUrl: baseline.msiUrl, servedBasisPoints: baselineServed, servedPercent: percentOf(baselineServed) },
    };
  },
});

export const publishRelease = defineOperation({
  operationId: 'publishRelease',
  method: 'POST',
  path: '/releases',
  summary:
    'Publish a release to a channel (stable by default), above every version that channel lists, to a share of its apps (rolloutBasisPoints, or rolloutPercent: ' +
    'that share is offered it or a newer one; with a ramp, its first step when left out), ' +
    "with the MSI's sha256 and size.",
  body: PublishReleaseSchema,
  output: ReleaseViewSchema,
  status: 201,
  errors: ['release_exists', 'release_not_higher', 'release_same_msi_version', 'channel_not_found'],
  async run(context, { body }, caller) {
    const publishedAt = context.clock.now();
    const channels = knownChannel(context, body.channel);
    const { rollout, ramp } = publishedRollout(body, publishedAt);
    const { rolloutBasisPoints: _, rolloutPercent: __, ...fields } = body;
    const release = publishedRelease({ ...fields, rolloutBasisPoints: rollout, sha256: body.sha256?.toLowerCase() ?? null, publishedAt, ramp });
    const plan = rampText(ramp);
    const served = await operatorChange(context, caller, async (tx) => {
      // Checked against every stored release while no publish, on any instance, can store one.
      await tx.lock('releases');
      const stored = await tx.releases.listReleases();
      const refusal = downgradeRefusal(body.version, stored, { channel: body.channel, listed: releasesOn(channels, body.channel, stored) });
      if (refusal) throw new OperatorError(refusal.code, refusal.message);
      if (!(await tx.releases.publishRelease(release))) throw new OperatorError('release_exists', `Version ${body.version} was published before.`);
      const share = servedAfter([...stored, release], publishedAt, channels)(release);
      const on = body.channel === STABLE ? '' : ` on ${body.channel}`;
      return {
        result: share,
        at: publishedAt,
        event: releaseEvent('release.published', release, share, publishedAt),
        audit: { action: 'release.published', target: `${body.version}${on} at ${percentOf(rollout)}%${plan}` },
      };
    });
    await context.releases.refresh();
    return releaseView(release, served, publishedAt);
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
  async run(context, { params, body }, caller) {
    const now = context.clock.now();
    const rollout = rolloutOf(body);
    const { release, served } = await operatorChange(context, caller, async (tx): Promise<Changed<Served>> => {
      const { releases, release: before } = await named(tx.releases, params.version);
      const pulled = () => new OperatorError('release_pulled', `${before.version} is pulled: a rollout change would not reach any client.`);
      if (before.pulledAt !== null) throw pulled();
      const release = await tx.releases.setRollout(before.version, rollout);
      if (!release) throw pulled();
      const served = servedAfter(releases, now, context.updateFiles.names)(release);
      const ended = before.ramp === null ? '' : ' (its ramp plan ends)';
      return {
        result: { release, served },
        at: now,
        event: rollout === rolloutInForce(before, now) ? null : releaseEvent('release.rolled_out', release, served, now),
        audit: { action: 'release.rollout', target: `${before.version} at ${percentOf(rollout)}%${ended}` },
      };
    });
    await context.releases.refresh();
    return releaseView(release, served, now);
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
    const at = context.clock.now();
    const { release, served } = await operatorChange(context, caller, async (tx): Promise<Changed<Served>> => {
      const { releases, release: before } = await named(tx.releases, params.version);
      // A plan ends at the step in force: a restore serves that rollout.
      const frozen = before.ramp === null ? undefined : rolloutInForce(before, at);
      const release = await tx.releases.pullRelease(before.version, at, frozen);
      if (!release) throw new OperatorError('release_not_found', `No release has version ${before.version}.`);
      const served = servedAfter(releases, at, context.updateFiles.names)(release);
      // A pull of a pulled release keeps its first time and is answered as it is: no event, no audit row.
      if (before.pulledAt !== null) return { result: { release, served } };
      const target = frozen === undefined ? before.version : `${before.version} (its ramp plan ends at ${percentOf(frozen)}%)`;
      return { result: { release, served }, at, event: releaseEvent('release.pulled', release, served, at), audit: { action: 'release.pulled', target } };
    });
    await context.releases.refresh();
    return releaseView(release, served, at);
  },
});

export const restoreRelease = defineOperation({
  operationId: 'restoreRelease',
  method: 'POST',
  path: '/releases/:version/restore',
  summary: 'Restore a pulled release: it is served again with its rollout.',
  output: ReleaseViewSchema,
  status: 200,
  errors: ['release_not_found'],
  async run(context, { params }, caller) {
    const now = context.clock.now();
    const { release, served } = await operatorChange(context, caller, async (tx): Promise<Changed<Served>> => {
      const { releases, release: before } = await named(tx.releases, params.version);
      const release = await tx.releases.restoreRelease(before.version);
      if (!release) throw new OperatorError('release_not_found', `No release has version ${before.version}.`);
      const served = servedAfter(releases, now, context.updateFiles.names)(release);
      // Restoring a release that is live (and not halted) changes nothing: answered as it is, no event, no audit row.
      if (before.pulledAt === null && before.haltedAt === null) return { result: { release, served } };
      return {
        result: { release, served },
        at: now,
        event: before.pulledAt !== null ? releaseEvent('release.restored', release, served, now) : null,
        audit: { action: 'release.restored', target: before.version },
      };
    });
    await context.releases.refresh();
    return releaseView(release, served, now);
  },
});

export const promoteRelease = defineOperation({
  operationId: 'promoteRelease',
  method: 'POST',
  path: '/releases/:version/promote',
  summary: "Promote a live release to a more stable channel (beta to stable): that channel's apps are offered it from now on, with the " +
    'rollout (or ramp) given, or its own; it stays listed on the channels it was on, and keeps its first publication time.',
  body: PromoteSchema,
  output: ReleaseViewSchema,
  status: 200,
  errors: ['release_not_found', 'release_pulled', 'channel_not_found', 'channel_not_more_stable', 'release_not_higher'],
  async run(context, { params, body }, caller) {
    const now = context.clock.now();
    const channels = knownChannel(context, body.channel);
    const rollout = givenRollout(body) !== null || body.ramp !== null ? publishedRollout(body, now) : null;
    const { release, served } = await operatorChange(context, caller, async (tx): Promise<Changed<Served>> => {
      await tx.lock('releases');
      const { releases, release: before } = await named(tx.releases, params.version);
      if (before.pulledAt !== null) {
        throw new OperatorError('release_pulled', `${before.version} is pulled: a promotion would reach no client. Restore it first.`);
      }
      // A promotion sent again (a retry) is answered as it is: no event, no audit row.
      if (before.channel === body.channel && rollout === null) return { result: { release: before, served: servedAfter(releases, now, channels)(before) } };
      if (!isMoreStable(channels, body.channel, before.channel)) {
        throw new OperatorError(
          'channel_not_more_stable',
          `${before.version} is on ${before.channel}, which ${body.channel} is not more stable than: a release moves towards stable only.`,
        );
      }
      const others = releases.filter((r) => r.version !== before.version);
      const refusal = downgradeRefusal(before.version, others, { channel: body.channel, listed: releasesOn(channels, body.channel, others) });
      if (refusal) throw new OperatorError(refusal.code, refusal.message);
      let release = await tx.releases.promoteRelease(before.version, body.channel);
      if (release && rollout) release = await tx.releases.setRollout(before.version, rollout.rollout, rollout.ramp ?? undefined);
      if (!release) throw new OperatorError('release_pulled', `${before.version} was pulled meanwhile: restore it first.`);
      const served = servedAfter(releases, now, channels)(release);
      const at = rollout === null ? '' : ` at ${percentOf(rollout.rollout)}%${rampText(rollout.ramp)}`;
      return {
        result: { release, served },
        at: now,
        event: releaseEvent('release.promoted', release, served, now),
        audit: { action: 'release.promoted', target: `${before.version} from ${before.channel} to ${body.channel}${at}` },
      };
    });
    await context.releases.refresh();
    return releaseView(release, served, now);
  },
});
