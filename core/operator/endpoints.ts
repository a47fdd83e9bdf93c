/**
 * The operator API in one table: each route's method, path, summary, request body and operation. The
 * operator listener's router and its OpenAPI document are both built from it.
 *
 * @module
 */
import type * as v from 'valibot';
import { json } from '../http.ts';
import type { OperatorContext, OperatorHandler } from './context.ts';
import { HandledSchema, listInbox, markHandled } from './inbox.ts';
import { listOrders, overrideOrder, ReasonSchema, reconcileOrders, ReconcileSchema, showOrder, upgradeOrder } from './orders.ts';
import { listReleases, publishRelease, pullRelease, RolloutSchema, setRollout, PublishReleaseSchema } from './releases.ts';

export interface OperatorRoute {
  operationId: string;
  method: 'GET' | 'POST';
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

/** How many audit entries GET /audit shows. */
const AUDIT_LIMIT = 200;

export const OPERATOR_ROUTES: readonly OperatorRoute[] = [
  {
    operationId: 'listReleases',
    method: 'GET',
    path: '/releases',
    summary: 'Every release, newest first, with its rollout and whether it was pulled.',
    status: 200,
    create: listReleases,
  },
  {
    operationId: 'publishRelease',
    method: 'POST',
    path: '/releases',
    summary: 'Publish a release to a share of the clients (rolloutPercent); the others keep the one before.',
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
    summary: 'Pull a release: no client gets it again; the release before it is served.',
    status: 200,
    create: pullRelease,
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
    create: (context) => async () => {
      const entries = await context.storage.audit.list(AUDIT_LIMIT);
      return json(200, { entries: entries.map((e) => ({ ...e, at: new Date(e.at).toISOString() })) });
    },
  },
];
