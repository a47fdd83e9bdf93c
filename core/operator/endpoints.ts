/**
 * The operator API in one table: each route's method, path, summary, request body and operation. The
 * operator listener's router and its OpenAPI document are both built from it.
 *
 * @module
 */
import type * as v from 'valibot';
import { AUDIT_LIMIT, listAudit } from './audit.ts';
import type { OperatorContext, OperatorHandler } from './context.ts';
import { HandledSchema, listInbox, markHandled } from './inbox.ts';
import { createFeature, CreateFeatureSchema, editFeature, EditFeatureSchema, listFeatures, mergeFeature, MergeFeatureSchema } from './roadmap.ts';
import { getStats } from './stats.ts';
import { addEndpoint, AddEndpointSchema, editEndpoint, EditEndpointSchema, listDeliveries, listEndpoints, replayDelivery } from './webhooks.ts';
import { listOrders, overrideOrder, ReasonSchema, reconcileOrders, ReconcileSchema, showOrder, upgradeOrder } from './orders.ts';
import { listReleases, publishRelease, pullRelease, restoreRelease, RolloutSchema, setRollout, PublishReleaseSchema } from './releases.ts';

export interface OperatorRoute {
  operationId: string;
  method: 'GET' | 'POST' | 'PATCH';
  /** A path of the operator listener; `:name` segments are parameters. */
  path: string;
  summary: string;
  /** The JSON body it takes, if any. */
  body?: v.GenericSchema;
  /** Whether the body may be left out. */
  bodyOptional?: boolean;
  /** The query parameters it takes, all optional. */
  query?: readonly string[];
  /** The success status. */
  status: number;
  create(context: OperatorContext): OperatorHandler;
}

export const OPERATOR_ROUTES: readonly OperatorRoute[] = [
  {
    operationId: 'listReleases',
    method: 'GET',
    path: '/releases',
    summary: 'Every release, highest version first, with its rollout, the share of clients it is served to now (servedPercent) and whether it was pulled; and the baseline.',
    status: 200,
    create: listReleases,
  },
  {
    operationId: 'publishRelease',
    method: 'POST',
    path: '/releases',
    summary:
      'Publish a release above every published version to a share of the clients (rolloutPercent: that share is offered it or a newer one), ' +
      'with the MSI\'s sha256 and size.',
    body: PublishReleaseSchema,
    status: 201,
    create: publishRelease,
  },
  {
    operationId: 'setReleaseRollout',
    method: 'POST',
    path: '/releases/:version/rollout',
    summary: 'Widen (or narrow) the share of clients a release is served to.',
    body: RolloutSchema,
    status: 200,
    create: setRollout,
  },
  {
    operationId: 'pullRelease',
    method: 'POST',
    path: '/releases/:version/pull',
    summary: 'Pull a release: no client gets it until it is restored; its clients get the next release below that serves them.',
    status: 200,
    create: pullRelease,
  },
  {
    operationId: 'restoreRelease',
    method: 'POST',
    path: '/releases/:version/restore',
    summary: 'Restore a pulled release: it is served again with its rollout percent.',
    status: 200,
    create: restoreRelease,
  },
  {
    operationId: 'listRoadmapFeatures',
    method: 'GET',
    path: '/roadmap',
    summary: 'Every roadmap feature in id order, hidden ones too, with its vote count, merged_into and from_config.',
    status: 200,
    create: listFeatures,
  },
  {
    operationId: 'createRoadmapFeature',
    method: 'POST',
    path: '/roadmap',
    summary: 'Add a feature (visible unless "visible": false); it takes the next id above every existing one.',
    body: CreateFeatureSchema,
    status: 201,
    create: createFeature,
  },
  {
    operationId: 'editRoadmapFeature',
    method: 'PATCH',
    path: '/roadmap/:id',
    summary: 'Change some of title, description, category, visible (hide or show) and release_version (shipped in).',
    body: EditFeatureSchema,
    status: 200,
    create: editFeature,
  },
  {
    operationId: 'mergeRoadmapFeature',
    method: 'POST',
    path: '/roadmap/:id/merge',
    summary: 'Merge a duplicate into another feature ({"into": id}): its votes move (one per voter), and it is hidden.',
    body: MergeFeatureSchema,
    status: 200,
    create: mergeFeature,
  },
  {
    operationId: 'listFeedback',
    method: 'GET',
    path: '/feedback',
    summary:
      'The feedback inbox, newest first: filters type, rating (1-5), since (ISO 8601), handled (true|false); ' +
      'limit (1-500, 50 by default) and before (the next of the page before).',
    query: ['type', 'rating', 'since', 'handled', 'limit', 'before'],
    status: 200,
    create: listInbox,
  },
  {
    operationId: 'markFeedbackHandled',
    method: 'POST',
    path: '/feedback/:id/handled',
    summary: 'Mark an entry handled ({"handled": true}) or not ({"handled": false}).',
    body: HandledSchema,
    status: 200,
    create: markHandled,
  },
  {
    operationId: 'listWebhookEndpoints',
    method: 'GET',
    path: '/webhooks',
    summary: 'The endpoints outbound events are sent to (without their secrets).',
    status: 200,
    create: listEndpoints,
  },
  {
    operationId: 'addWebhookEndpoint',
    method: 'POST',
    path: '/webhooks',
    summary:
      'Register an endpoint ({url, events?, format?}: events empty for every type; format standard or slack). ' +
      'The answer holds its signing secret (whsec_...), shown this once.',
    body: AddEndpointSchema,
    status: 201,
    create: addEndpoint,
  },
  {
    operationId: 'editWebhookEndpoint',
    method: 'PATCH',
    path: '/webhooks/:id',
    summary: 'Change some of url, events and enabled (false: no new deliveries to it).',
    body: EditEndpointSchema,
    status: 200,
    create: editEndpoint,
  },
  {
    operationId: 'listWebhookDeliveries',
    method: 'GET',
    path: '/webhooks/deliveries',
    summary: 'The delivery log, newest first: state (pending|delivered|failed), limit (1-500, 50), before (the next of the page before).',
    query: ['state', 'limit', 'before'],
    status: 200,
    create: listDeliveries,
  },
  {
    operationId: 'replayWebhookDelivery',
    method: 'POST',
    path: '/webhooks/deliveries/:id/replay',
    summary: 'Send a delivery again now, from its first attempt, with the same webhook-id and body.',
    status: 200,
    create: replayDelivery,
  },
  {
    operationId: 'getStats',
    method: 'GET',
    path: '/stats',
    summary:
      'Downloads and update checks by day, release, source and platform, and feedback by day, type and rating, ' +
      'over the last `days` UTC days (1-365, 30 by default), today included.',
    query: ['days'],
    status: 200,
    create: getStats,
  },
  {
    operationId: 'listOrders',
    method: 'GET',
    path: '/orders',
    summary:
      'Paid orders, newest first, with their buyer, keys and standing: email (exact, any case) or session (that ' +
      'session whatever its state); limit (1-500, 50 by default).',
    query: ['email', 'session', 'limit'],
    status: 200,
    create: listOrders,
  },
  {
    operationId: 'reconcileOrders',
    method: 'POST',
    path: '/orders/reconcile',
    summary:
      'Fulfil the sessions the provider has as paid since `since` (7 days by default) that this server did not ' +
      'fulfil, as a notification would; sessions it did not create are counted and left alone.',
    body: ReconcileSchema,
    bodyOptional: true,
    status: 200,
    create: reconcileOrders,
  },
  {
    operationId: 'showOrder',
    method: 'GET',
    path: '/orders/:session',
    summary: 'One checkout session, whatever its state, with its buyer, its license keys and their state.',
    status: 200,
    create: showOrder,
  },
  {
    operationId: 'upgradeOrder',
    method: 'POST',
    path: '/orders/:session/upgrade',
    summary: 'Issue the Plus key of a paid order that has none (idempotent: an order with one is answered as it is).',
    status: 200,
    create: upgradeOrder,
  },
  {
    operationId: 'revokeOrder',
    method: 'POST',
    path: '/orders/:session/revoke',
    summary: 'Revoke a paid order\'s licenses (optional reason); GET /api/v1/checkout/status then shows no keys.',
    body: ReasonSchema,
    bodyOptional: true,
    status: 200,
    create: overrideOrder('revoked'),
  },
  {
    operationId: 'reinstateOrder',
    method: 'POST',
    path: '/orders/:session/reinstate',
    summary: 'Reinstate a paid order\'s licenses (optional reason), whatever the provider said; a later refund or dispute still counts.',
    body: ReasonSchema,
    bodyOptional: true,
    status: 200,
    create: overrideOrder('reinstated'),
  },
  {
    operationId: 'listAudit',
    method: 'GET',
    path: '/audit',
    summary: `The latest ${AUDIT_LIMIT} changes made through the operator API, newest first.`,
    status: 200,
    create: listAudit,
  },
];
