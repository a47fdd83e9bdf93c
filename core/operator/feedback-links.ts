/**
 * Requests linked to the roadmap: a feedback entry names the feature it asks for (PUT /feedback/{id}/feature,
 * or many at once from the Inbox with POST /feedback/feature), so that the roadmap admin shows who asked and
 * the requester is told when it ships. Audited (feedback.linked, feedback.unlinked) with a feedback.linked
 * event, in one unit of work with the links (core/ports/change.ts).
 *
 * @module
 */
import * as v from 'valibot';
import { roadmapContentObject } from '../schemas/content.ts';
import { type Caller, operatorChange, type OperatorContext } from './context.ts';
import { OperatorError } from './errors.ts';
import { BULK_HANDLED_MAX } from './inbox.ts';
import { defineOperation } from './operation.ts';

const FeatureIdOrNull = v.pipe(v.nullable(roadmapContentObject.entries.id), v.description('The roadmap feature the request asks for; null unlinks it.'));

export const LinkFeatureSchema = v.strictObject({ featureId: FeatureIdOrNull });

export const BulkLinkSchema = v.strictObject({
  ids: v.pipe(
    v.array(v.pipe(v.number(), v.integer('must be whole numbers'), v.minValue(1, 'must be ids from 1'), v.maxValue(Number.MAX_SAFE_INTEGER))),
    v.minLength(1, 'must list at least one id'),
    v.maxLength(BULK_HANDLED_MAX, `must list at most ${BULK_HANDLED_MAX} ids`),
  ),
  featureId: FeatureIdOrNull,
});

/** What a link call did: the ids whose link changed, ascending, and the listed ids that exist. */
interface Linked {
  changed: number[];
  found: number;
}

/**
 * Links (or unlinks) the listed entries in one change: refuses a feature that does not exist, writes only
 * the entries whose link changes, with one audit entry and one feedback.linked event for them all.
 */
function link(
  context: OperatorContext,
  caller: Caller,
  ids: readonly number[],
  featureId: number | null,
  describe: (changed: readonly number[]) => string,
): Promise<Linked> {
  return operatorChange(context, caller, async (tx) => {
    if (featureId !== null && !(await tx.features.list()).some((feature) => feature.id === featureId)) {
      throw new OperatorError('feature_not_found', `No roadmap feature has id ${featureId}.`);
    }
    const found = await tx.links.linksOf([...new Set(ids)]);
    const changed = found.filter((entry) => entry.featureId !== featureId).map((entry) => entry.feedbackId);
    const result = { changed, found: found.length };
    if (changed.length === 0) return { result };
    await tx.links.setFeature(changed, featureId);
    return {
      result,
      event: { type: 'feedback.linked', data: { featureId, feedbackIds: changed } },
      audit: { action: featureId === null ? 'feedback.unlinked' : 'feedback.linked', target: describe(changed) },
    };
  });
}

const toFeature = (featureId: number | null) => (featureId === null ? 'no feature' : `feature ${featureId}`);

export const linkFeedbackFeature = defineOperation({
  operationId: 'linkFeedbackFeature',
  method: 'PUT',
  path: '/feedback/:id/feature',
  summary: 'Link a feedback entry to the roadmap feature it asks for ({"featureId": n}), or unlink it ({"featureId": null}). ' +
    'A link to a feature later merged counts for the feature its votes went to. Linking it again to the same feature writes no audit row.',
  body: LinkFeatureSchema,
  output: v.object({ id: v.number(), featureId: v.nullable(v.number()), changed: v.boolean() }),
  status: 200,
  errors: ['feedback_not_found', 'feature_not_found'],
  async run(context, { params, body }, caller) {
    const id = /^\d{1,15}$/.test(params.id) ? Number(params.id) : 0;
    const done = id > 0 ? await link(context, caller, [id], body.featureId, () => `${id} to ${toFeature(body.featureId)}`) : { changed: [], found: 0 };
    if (done.found === 0) throw new OperatorError('feedback_not_found', `No feedback has id ${JSON.stringify(params.id)}.`);
    return { id, featureId: body.featureId, changed: done.changed.length > 0 };
  },
});

export const linkFeedbackListFeature = defineOperation({
  operationId: 'linkFeedbackListFeature',
  method: 'POST',
  path: '/feedback/feature',
  summary: `Link the listed entries (ids, 1-${BULK_HANDLED_MAX}) to one roadmap feature ({"featureId": n}), or unlink them (null); ` +
    'entries linked so already are not counted; one audit row and one feedback.linked event for those that changed.',
  body: BulkLinkSchema,
  output: v.object({
    linked: v.pipe(v.array(v.number()), v.description('The ids whose link changed, ascending.')),
    unchanged: v.number(),
    notFound: v.pipe(v.number(), v.description('Listed ids with no entry.')),
  }),
  status: 200,
  errors: ['feature_not_found'],
  async run(context, { body }, caller) {
    const listed = new Set(body.ids).size;
    const describe = (changed: readonly number[]) =>
      `${changed.length} ${changed.length === 1 ? 'entry' : 'entries'} (of ${listed} listed) to ${toFeature(body.featureId)}`;
    const done = await link(context, caller, body.ids, body.featureId, describe);
    return { linked: done.changed, unchanged: done.found - done.changed.length, notFound: listed - done.found };
  },
});
