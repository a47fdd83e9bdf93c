/**
 * Resuming a ramp the halt rule held (core/releases/halt-rule.ts): the plan goes on from the step it held
 * at, each later step as much later as the halt lasted. Audited, and sends release.resumed. Pulling a
 * halted release is the other way out (releases.ts).
 *
 * @module
 */
import { resumedPlan } from '../releases/ramp-plan.ts';
import { eventOf, releaseView, ReleaseViewSchema, servedAfter } from '../releases/release-json.ts';
import { changed, named } from './releases.ts';
import { auditTrail } from './context.ts';
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
    const { releases, release: before } = await named(context, params.version);
    const notHalted = () => new OperatorError('release_not_halted', `${before.version} is not halted: its ramp (if any) runs as planned.`);
    if (before.ramp === null || before.haltedAt === null || before.pulledAt !== null) throw notHalted();
    const now = context.clock.now();
    const ramp = resumedPlan(before.ramp, before.haltedAt, now);
    const trail = auditTrail(context, caller);
    const target = `${before.version} (halted ${new Date(before.haltedAt).toISOString()}: ${before.haltReason ?? ''})`;
    const emit = trail.with(() => ({ action: 'release.resumed', target }), eventOf('release.resumed', now, servedAfter(releases, now)));
    const release = await context.storage.releases.resumeRelease(before.version, ramp, emit);
    // Resumed or pulled meanwhile, through another instance.
    if (!release) throw notHalted();
    await changed(context, trail);
    return releaseView(release, servedAfter(releases, now)(release), now);
  },
});
