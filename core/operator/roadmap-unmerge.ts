/**
 * Undoing a roadmap merge: the duplicate is shown again and the votes that came from it go back to it.
 * A merge records which votes it moved (since migration 29); an older merge recorded nothing, and its
 * undoing is refused rather than guessed.
 *
 * @module
 */
import * as v from 'valibot';
import { operatorChange } from './context.ts';
import { OperatorError } from './errors.ts';
import { defineOperation } from './operation.ts';
import { changedEvent, idOf, StoredFeatureSchema } from './roadmap.ts';

export const unmergeRoadmapFeature = defineOperation({
  operationId: 'unmergeRoadmapFeature',
  method: 'POST',
  path: '/roadmap/:id/unmerge',
  summary: 'Undo a merge: the duplicate is shown again, and each vote it had when merged goes back to it from the feature ' +
    'it was merged into, if that voter still votes there (a voter who had voted for both keeps both votes).',
  output: v.object({ shown: StoredFeatureSchema, from: StoredFeatureSchema, restoredVotes: v.number() }),
  status: 200,
  errors: ['feature_not_found', 'feature_not_merged', 'merge_not_recorded', 'unmerge_target_merged'],
  async run(context, { params }, caller) {
    const id = idOf(params.id);
    return operatorChange(context, caller, async (tx) => {
      const outcome = await tx.features.unmerge(id);
      switch (outcome.kind) {
        case 'not_found':
          throw new OperatorError('feature_not_found', `No roadmap feature has id ${outcome.id}.`);
        case 'not_merged':
          throw new OperatorError('feature_not_merged', `Feature ${id} is not merged into another: there is no merge to undo.`);
        case 'not_recorded':
          throw new OperatorError(
            'merge_not_recorded',
            `Feature ${id} was merged into feature ${outcome.feature.merged_into} before merges recorded the votes they move: it cannot be unmerged.`,
          );
        case 'target_merged':
          throw new OperatorError(
            'unmerge_target_merged',
            `Feature ${outcome.into.id}, which ${id} was merged into, is merged into feature ${outcome.into.merged_into} now.`,
          );
      }
      return {
        result: { shown: outcome.shown, from: outcome.from, restoredVotes: outcome.restored },
        event: changedEvent('unmerged', outcome.shown, { restoredVotes: outcome.restored }),
        audit: { action: 'roadmap.unmerged', target: `${id} out of ${outcome.from.id} (${outcome.restored} votes back)` },
      };
    });
  },
});
