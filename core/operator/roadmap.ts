/**
 * Roadmap admin: every feature with its votes (hidden ones too), create, edit (text, category, shown or
 * hidden, the release that shipped it) and merge a duplicate into another. GET /api/v1/roadmap reads the
 * same storage, so it reflects each change at once, on every instance.
 *
 * @module
 */
import * as v from 'valibot';
import { readJsonObject } from '../body.ts';
import { json } from '../http.ts';
import { roadmapContentObject } from '../schemas/content.ts';
import type { StoredFeature } from '../store-ports.ts';
import { parseOrThrow } from '../validate.ts';
import { recordChange, type OperatorContext, type OperatorHandler } from './context.ts';
import { OperatorError } from './errors.ts';

const fields = roadmapContentObject.entries;

export const CreateFeatureSchema = v.strictObject({
  title: fields.title,
  description: v.optional(fields.description, ''),
  category: fields.category,
  visible: v.optional(fields.visible, true),
  release_version: fields.release_version,
});

export const EditFeatureSchema = v.pipe(
  v.strictObject({
    title: v.optional(fields.title),
    description: v.optional(fields.description),
    category: v.optional(fields.category),
    visible: v.optional(fields.visible),
    release_version: v.optional(v.nullable(fields.release_version.wrapped)),
  }),
  v.minEntries(1, 'must give at least one of title, description, category, visible, release_version'),
);

export const MergeFeatureSchema = v.strictObject({ into: fields.id });

/** The :id of the path, or a 404 for one that cannot be a feature id. */
function idOf(params: Record<string, string>): number {
  const text = params['id'] ?? '';
  const id = /^\d{1,10}$/.test(text) ? Number(text) : 0;
  if (id < 1 || id > 2147483647) throw new OperatorError('feature_not_found', `No roadmap feature has id ${JSON.stringify(text)}.`);
  return id;
}

/** What a change did, for the audit trail: "3: visible=false, release_version=2.5.0". */
function described(id: number, change: Record<string, unknown>): string {
  return `${id}: ${Object.entries(change).map(([name, value]) => `${name}=${value === null ? 'null' : String(value)}`).join(', ')}`;
}

/** roadmap.changed, written with the change: what was done, and the feature as it is afterwards. */
const changedEvent =
  (context: OperatorContext, action: 'created' | 'edited' | 'merged', extra: Record<string, unknown> = {}) =>
  (feature: StoredFeature) => ({ event: { type: 'roadmap.changed' as const, data: { action, ...feature, ...extra } }, at: context.clock.now() });

export function listFeatures(context: OperatorContext): OperatorHandler {
  return async () => json(200, { features: await context.storage.features.list() });
}

export function createFeature(context: OperatorContext): OperatorHandler {
  return async (request) => {
    const input = parseOrThrow(CreateFeatureSchema, readJsonObject(request, context.bodyLimit, true));
    const feature = await context.storage.features.create(input, changedEvent(context, 'created'));
    await recordChange(context, request, 'roadmap.created', `${feature.id}: ${feature.title}`);
    return json(201, feature);
  };
}

export function editFeature(context: OperatorContext): OperatorHandler {
  return async (request, params) => {
    const id = idOf(params);
    const change = parseOrThrow(EditFeatureSchema, readJsonObject(request, context.bodyLimit, true));
    const feature = await context.storage.features.update(id, change, changedEvent(context, 'edited'));
    if (!feature) throw new OperatorError('feature_not_found', `No roadmap feature has id ${id}.`);
    await recordChange(context, request, 'roadmap.edited', described(id, change));
    return json(200, feature);
  };
}

export function mergeFeature(context: OperatorContext): OperatorHandler {
  return async (request, params) => {
    const from = idOf(params);
    const { into } = parseOrThrow(MergeFeatureSchema, readJsonObject(request, context.bodyLimit, true));
    if (from === into) throw new OperatorError('merge_into_itself', `Feature ${from} cannot be merged into itself.`);
    const emit = (merged: { from: StoredFeature; moved: number }) => changedEvent(context, 'merged', { movedVotes: merged.moved })(merged.from);
    const outcome = await context.storage.features.merge(from, into, emit);
    switch (outcome.kind) {
      case 'not_found':
        throw new OperatorError('feature_not_found', `No roadmap feature has id ${outcome.id}.`);
      case 'already_merged':
        throw new OperatorError('feature_already_merged', `Feature ${from} was merged into feature ${outcome.from.merged_into} before.`);
      case 'hidden_target':
        throw new OperatorError('merge_target_hidden', `Feature ${into} is hidden: its votes could not be seen or cast.`);
    }
    await recordChange(context, request, 'roadmap.merged', `${from} into ${into} (${outcome.moved} votes moved)`);
    return json(200, { merged: outcome.from, into: outcome.into, movedVotes: outcome.moved });
  };
}

