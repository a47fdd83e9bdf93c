/**
 * Roadmap admin: every feature with its votes (hidden ones too), create, edit (text, category, shown or
 * hidden, the release that shipped it) and merge a duplicate into another. GET /api/v1/roadmap reads the
 * same storage, so it reflects each change at once, on every instance.
 *
 * @module
 */
import * as v from 'valibot';
import { ROADMAP_CATEGORIES } from '../schemas/roadmap.ts';
import { roadmapContentObject } from '../schemas/content.ts';
import type { EventDraft } from '../ports/events.ts';
import type { StoredFeature } from '../ports/store-ports.ts';
import { operatorChange } from './context.ts';
import { OperatorError } from './errors.ts';
import { checkShippedIn } from './shipped-in.ts';
import { defineOperation } from './operation.ts';
import { requestsByFeature } from '../changelog/linked-requests.ts';

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

/** The orders GET /roadmap lists features in: by id (the default), or most votes first. */
export const ROADMAP_SORTS = ['id', 'votes'] as const;

export const RoadmapQuerySchema = v.strictObject({
  sort: v.optional(v.picklist(ROADMAP_SORTS, `must be ${ROADMAP_SORTS.join(' or ')}`)),
});

/** Most votes first; equal votes in id order. */
const byVotes = (a: StoredFeature, b: StoredFeature) => b.vote_count - a.vote_count || a.id - b.id;

/** A feature as the operator API shows it: hidden and merged ones too. */
export const StoredFeatureSchema = v.object({
  id: v.number(),
  title: v.string(),
  description: v.string(),
  category: v.pipe(v.string(), v.description(`One of ${ROADMAP_CATEGORIES.join(', ')}.`)),
  visible: v.boolean(),
  release_version: v.nullable(v.string()),
  vote_count: v.number(),
  merged_into: v.nullable(v.number()),
  from_config: v.boolean(),
});

/**
 * A feature as the roadmap admin lists it: with the feedback entries linked to it (those linked to a
 * feature merged into it included) and how many of them left an email.
 */
export const AdminFeatureSchema = v.object({
  ...StoredFeatureSchema.entries,
  linked_requests: v.pipe(
    v.array(v.number()),
    v.description('The ids of the feedback entries that ask for it, ascending (links to features merged into it count here).'),
  ),
  linked_with_email: v.pipe(v.number(), v.description('How many of them left an email: who is told when it ships.')),
  requester_mails: v.pipe(v.boolean(), v.description('Whether its requesters are told when it ships (PUT /roadmap/{id}/requester-mails).')),
});

/** The :id of the path, or a 404 for one that cannot be a feature id. */
export function idOf(text: string): number {
  const id = /^\d{1,10}$/.test(text) ? Number(text) : 0;
  if (id < 1 || id > 2147483647) throw new OperatorError('feature_not_found', `No roadmap feature has id ${JSON.stringify(text)}.`);
  return id;
}

/** What a change did, for the audit trail: "3: visible=false, release_version=2.5.0". */
function described(id: number, change: Record<string, unknown>): string {
  return `${id}: ${Object.entries(change).map(([name, value]) => `${name}=${value === null ? 'null' : String(value)}`).join(', ')}`;
}

/** roadmap.changed, written with the change: what was done, and the feature as it is afterwards. */
export const changedEvent = (
  action: 'created' | 'edited' | 'merged' | 'unmerged',
  feature: StoredFeature,
  extra: Record<string, unknown> = {},
): EventDraft => ({
  type: 'roadmap.changed',
  data: { action, ...feature, ...extra },
});

export const listRoadmapFeatures = defineOperation({
  operationId: 'listRoadmapFeatures',
  method: 'GET',
  path: '/roadmap',
  summary:
    'Every roadmap feature, hidden ones too, with its vote count, merged_into, from_config, its linked requests and how many left an email: in id order, ' +
    'or with sort=votes most votes first (equal votes in id order).',
  query: RoadmapQuerySchema,
  output: v.object({ features: v.array(AdminFeatureSchema) }),
  status: 200,
  errors: ['invalid_query'],
  async run(context, { query }) {
    const [features, linked, off] = await Promise.all([context.storage.features.list(), context.storage.links.linked(), context.storage.shipping.mailsOff()]);
    const requests = requestsByFeature(linked, features);
    const listed = features.map((feature) => {
      const counted = requests.get(feature.id);
      return { ...feature, linked_requests: counted?.requests ?? [], linked_with_email: counted?.withEmail ?? 0, requester_mails: !off.includes(feature.id) };
    });
    return { features: query.sort === 'votes' ? listed.sort(byVotes) : listed };
  },
});

export const createRoadmapFeature = defineOperation({
  operationId: 'createRoadmapFeature',
  method: 'POST',
  path: '/roadmap',
  summary: 'Add a feature (visible unless "visible": false); it takes the next id above every existing one.',
  body: CreateFeatureSchema,
  output: StoredFeatureSchema,
  status: 201,
  errors: ['release_not_live'],
  async run(context, { body }, caller) {
    await checkShippedIn(context, body.release_version);
    return operatorChange(context, caller, async (tx) => {
      const feature = await tx.features.create(body);
      return { result: feature, event: changedEvent('created', feature), audit: { action: 'roadmap.created', target: `${feature.id}: ${feature.title}` } };
    });
  },
});

export const editRoadmapFeature = defineOperation({
  operationId: 'editRoadmapFeature',
  method: 'PATCH',
  path: '/roadmap/:id',
  summary: 'Change some of title, description, category, visible (hide or show) and release_version (shipped in).',
  body: EditFeatureSchema,
  output: StoredFeatureSchema,
  status: 200,
  errors: ['feature_not_found', 'release_not_live'],
  async run(context, { params, body }, caller) {
    const id = idOf(params.id);
    await checkShippedIn(context, body.release_version);
    return operatorChange(context, caller, async (tx) => {
      const feature = await tx.features.update(id, body);
      if (!feature) throw new OperatorError('feature_not_found', `No roadmap feature has id ${id}.`);
      return { result: feature, event: changedEvent('edited', feature), audit: { action: 'roadmap.edited', target: described(id, body) } };
    });
  },
});

export const mergeRoadmapFeature = defineOperation({
  operationId: 'mergeRoadmapFeature',
  method: 'POST',
  path: '/roadmap/:id/merge',
  summary: 'Merge a duplicate into another feature ({"into": id}): its votes move (one per voter), and it is hidden.',
  body: MergeFeatureSchema,
  output: v.object({ merged: StoredFeatureSchema, into: StoredFeatureSchema, movedVotes: v.number() }),
  status: 200,
  errors: ['feature_not_found', 'merge_into_itself', 'feature_already_merged', 'merge_target_hidden'],
  async run(context, { params, body: { into } }, caller) {
    const from = idOf(params.id);
    if (from === into) throw new OperatorError('merge_into_itself', `Feature ${from} cannot be merged into itself.`);
    return operatorChange(context, caller, async (tx) => {
      const outcome = await tx.features.merge(from, into);
      switch (outcome.kind) {
        case 'not_found':
          throw new OperatorError('feature_not_found', `No roadmap feature has id ${outcome.id}.`);
        case 'already_merged':
          throw new OperatorError('feature_already_merged', `Feature ${from} was merged into feature ${outcome.from.merged_into} before.`);
        case 'hidden_target':
          throw new OperatorError('merge_target_hidden', `Feature ${into} is hidden: its votes could not be seen or cast.`);
      }
      return {
        result: { merged: outcome.from, into: outcome.into, movedVotes: outcome.moved },
        event: changedEvent('merged', outcome.from, { movedVotes: outcome.moved }),
        audit: { action: 'roadmap.merged', target: `${from} into ${into} (${outcome.moved} votes moved)` },
      };
    });
  },
});
