/**
 * Resuming a ramp the halt rule held (core/releases/halt-rule.ts): the plan goes on from the step it held
 * at, each later step as much later as the halt lasted. Audited, and sends release.resumed. Pulling a
 * halted release is the other way out (releases.ts).
 *
 * @module
 */
import { resumedPlan } from '../releases/ramp-plan.ts';
import { releaseEvent, releaseView, ReleaseViewSchema, servedAfter } from '../releases/release-json.ts';
import { named } from './releases.ts';
import { operatorChange } from './context.ts';
import { OperatorError } from './errors.ts';
import { defineOperation } from './operation.ts';

export const resumeRelease = defineOperation({
  operationId: 'resumeRelease',
  method: 'POST',
  path: '/releases/:version/resume',
  summary: 'Resume a ramp the halt rule held: its plan goes on from the step it held at, each later step as much later as the halt lasted.',
  output: ReleaseViewSchema,
  status: 200,
  errors: ['release_not_found', 'release_not_halted'],
  async run(context, { params }, caller) {
    const now = context.clock.now();
    const { release, served } = await operatorChange(context, caller, async (tx) => {
      const { releases, release: before } = await named(tx.releases, params.version);
      const notHalted = () => new OperatorError('release_not_halted', `${before.version} is not halted: its ramp (if any) runs as planned.`);
      if (before.ramp === null || before.haltedAt === null || before.pulledAt !== null) throw notHalted();
      const release = await tx.releases.resumeRelease(before.version, resumedPlan(before.ramp, before.haltedAt, now));
      // Resumed or pulled meanwhile, through another instance.
      if (!release) throw notHalted();
      const served = servedAfter(releases, now, context.updateFiles.names)(release);
      const target = `${before.version} (halted ${new Date(before.haltedAt).toISOString()}: ${before.haltReason ?? ''})`;
      return {
        result: { release, served },
        at: now,
        event: releaseEvent('release.resumed', release, served, now),
        audit: { action: 'release.resumed', target },
      };
    });
    await context.releases.refresh();
    return releaseView(release, served, now);
  },
});
