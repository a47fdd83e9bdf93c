/**
 * The operator's orders: find by the buyer's email or the session, show one with its keys, issue the
 * Plus key of a standard order (upgrade), revoke and reinstate its licenses, and reconcile the sessions
 * the provider has as paid with what this server fulfilled. Each change goes to the audit trail and the log.
 *
 * @module
 */
import * as v from 'valibot';
import { DAY_MS } from '../budgets/budgets.ts';
import { fulfil, type KeysChange, licensesFor } from '../licensing/fulfilment.ts';
import { upgradeWindow } from '../licensing/sale-windows.ts';
import { isRevoked, type OrderOverride } from '../ports/order-state.ts';
import type { Order } from '../ports/store-ports.ts';
import { licenseVerdict } from '../webhooks/events.ts';
import { upgradeMail, verdictMail } from '../mail/messages.ts';
import { issuedForm } from '../operations/license-validate.ts';
import { operatorChange, type OperatorContext } from './context.ts';
import { OperatorError } from './errors.ts';
import { IsoTime, QueryDigits } from './json-views.ts';
import { defineOperation } from './operation.ts';
import { orderView, OrderViewSchema } from './order-view.ts';

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 500;
/** How far back `orders reconcile` looks by default: a week, past Stripe's three days of webhook retries. */
const RECONCILE_DAYS = 7;
/** The most paid sessions one reconcile goes through. */
const RECONCILE_LIMIT = 1000;

// An email or session pasted with spaces (or a tab, a line break) around it is found as typed without them.
export const OrdersQuerySchema = v.strictObject({
  email: v.optional(v.pipe(v.string(), v.trim(), v.minLength(3, 'must be an email address'), v.maxLength(320, 'must be at most 320 characters'))),
  session: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(255, 'must be at most 255 characters'))),
  // A license key as a buyer pastes it: spaces and line breaks anywhere in it are dropped (a key has none).
  key: v.optional(
    v.pipe(
      v.string(),
      v.transform((text) => text.replace(/\s+/g, '')),
      v.minLength(1, 'must be a license key'),
      v.maxLength(1000, 'must be at most 1000 characters'),
    ),
  ),
  name: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(200, 'must be at most 200 characters'))),
  limit: v.optional(v.pipe(QueryDigits, v.minValue(1, `must be 1 to ${MAX_LIMIT}`), v.maxValue(MAX_LIMIT, `must be 1 to ${MAX_LIMIT}`))),
});

export const ReasonSchema = v.strictObject({
  reason: v.optional(v.pipe(v.string(), v.regex(/\S/, 'must not be blank'), v.maxLength(500, 'must be at most 500 characters'))),
});

export const ReconcileSchema = v.strictObject({
  since: v.optional(v.pipe(v.string(), v.isoTimestamp('must be an ISO 8601 timestamp such as 2026-11-01T00:00:00Z'))),
});

/** The order of the path's session, paid: else 404 order_not_found or 409 order_not_paid. */
async function paidOrder(context: OperatorContext, id: string): Promise<Order> {
  const order = await context.storage.orders.get(id);
  if (!order) throw new OperatorError('order_not_found', `No checkout session has id ${JSON.stringify(id)}.`);
  if (order.session.state !== 'paid') throw new OperatorError('order_not_paid', `Checkout session ${id} is ${order.session.state}, not paid.`);
  return order;
}

export const listOrders = defineOperation({
  operationId: 'listOrders',
  method: 'GET',
  path: '/orders',
  summary: 'Paid orders, newest first, with their buyer, keys and standing: email (exact, any case, spaces around it ' +
    "ignored) and name (part of the buyer's name, any case) together; or session (that session whatever its " +
    'state); or key (the order holding that license key, spaces and line breaks in it ignored); limit (1-500, 50 by default).',
  query: OrdersQuerySchema,
  output: v.object({ orders: v.array(OrderViewSchema) }),
  status: 200,
  errors: ['invalid_query'],
  async run(context, { query }) {
    if (query.key !== undefined) {
      const held = await context.storage.orders.ofLicenseKey(issuedForm(query.key));
      return { orders: held === null ? [] : [orderView(held)] };
    }
    const orders = await context.storage.orders.find({ email: query.email, name: query.name, session: query.session, limit: query.limit ?? DEFAULT_LIMIT });
    return { orders: orders.map(orderView) };
  },
});

export const showOrder = defineOperation({
  operationId: 'showOrder',
  method: 'GET',
  path: '/orders/:session',
  summary: 'One checkout session, whatever its state, with its buyer, its license keys and their state.',
  output: OrderViewSchema,
  status: 200,
  errors: ['order_not_found'],
  async run(context, { params }) {
    const order = await context.storage.orders.get(params.session);
    if (!order) throw new OperatorError('order_not_found', `No checkout session has id ${JSON.stringify(params.session)}.`);
    return orderView(order);
  },
});

export const upgradeOrder = defineOperation({
  operationId: 'upgradeOrder',
  method: 'POST',
  path: '/orders/:session/upgrade',
  summary: 'Issue the Plus key of a paid order that has none (idempotent: an order with one is answered as it is).',
  output: OrderViewSchema,
  status: 200,
  errors: ['order_not_found', 'order_not_paid', 'order_revoked'],
  async run(context, { params }, caller) {
    const order = await paidOrder(context, params.session);
    const { session } = order;
    if (isRevoked(order.standing)) throw new OperatorError('order_revoked', `The licenses of ${session.id} are revoked.`);
    const keys = order.keys ?? (await licensesFor(context, session, order.purchase));
    if (keys.plus === null) {
      const plus = await context.licenses.issue({
        sessionId: session.id,
        sku: session.sku,
        product: 'plus',
        issuedAt: context.clock.now(),
        simulated: context.gateway.simulated === true,
      });
      const at = context.clock.now();
      const saved = await operatorChange(context, caller, async (tx) => {
        const added = await tx.orders.addPlusKey(session.id, plus, upgradeWindow(context.updateWindows));
        // Only the call that stored its key upgraded the order (first write wins).
        if (!added?.stored) return { result: added };
        return { result: added, at, audit: { action: 'order.upgraded', target: session.id }, mail: upgradeMail(context.mail, order, added.keys, at) };
      });
      if (saved?.stored) context.count('license_issued');
    }
    return orderView((await context.storage.orders.get(session.id))!);
  },
});

/** Revokes or reinstates an order's licenses by the operator's word; nothing changes when they already are. */
function overrideOrder(override: OrderOverride, operationId: string, path: '/orders/:session/revoke' | '/orders/:session/reinstate', summary: string) {
  return defineOperation({
    operationId,
    method: 'POST',
    path,
    summary,
    body: ReasonSchema,
    bodyOptional: true,
    output: OrderViewSchema,
    status: 200,
    errors: ['order_not_found', 'order_not_paid'],
    async run(context, { params, body }, caller) {
      const order = await paidOrder(context, params.session);
      const wanted = override === 'revoked';
      if (isRevoked(order.standing) === wanted) return orderView(order);
      const reason = body.reason?.trim() ?? null;
      const at = context.clock.now();
      const after = await operatorChange(context, caller, async (tx) => {
        const overridden = await tx.orders.override(order.session.id, override, reason, at);
        if (!overridden) return { result: null };
        const { before, order: changed } = overridden;
        const draft = licenseVerdict(before, changed, reason === null ? 'by the operator' : `by the operator: ${reason}`);
        // Decided on the standing read under the order's lock: of two racing revokes, one is audited and reported.
        const audit = isRevoked(before) === wanted
          ? null
          : { action: `order.${override}`, target: reason === null ? order.session.id : `${order.session.id}: ${reason}` };
        return { result: changed, at, event: draft, audit, mail: draft && verdictMail(context.mail, changed, at) };
      });
      return orderView(after ?? order);
    },
  });
}

export const revokeOrder = overrideOrder(
  'revoked',
  'revokeOrder',
  '/orders/:session/revoke',
  "Revoke a paid order's licenses (optional reason); GET /api/v1/checkout/status then shows no keys.",
);

export const reinstateOrder = overrideOrder(
  'reinstated',
  'reinstateOrder',
  '/orders/:session/reinstate',
  "Reinstate a paid order's licenses (optional reason), whatever the provider said; a later refund or dispute still counts.",
);

/** What POST /orders/reconcile answers (the orders page and the orders command read it). */
export const ReconciledSchema = v.object({
  since: IsoTime,
  checked: v.number(),
  fulfilled: v.array(v.string()),
  alreadyFulfilled: v.number(),
  unknown: v.number(),
  complete: v.boolean(),
});
export type Reconciled = v.InferOutput<typeof ReconciledSchema>;

/**
 * Finds the sessions the provider has as paid since `since` (a week by default) that this server did
 * not fulfil (not paid here, no keys, or no purchase kept), and fulfils them with the function the
 * notifications use. Sessions this server did not create are counted and left alone.
 */
export const reconcileOrders = defineOperation({
  operationId: 'reconcileOrders',
  method: 'POST',
  path: '/orders/reconcile',
  summary: 'Fulfil the sessions the provider has as paid since `since` (7 days by default) that this server did not ' +
    'fulfil, as a notification would; sessions it did not create are counted and left alone.',
  body: ReconcileSchema,
  bodyOptional: true,
  output: ReconciledSchema,
  status: 200,
  errors: ['reconcile_unavailable'],
  async run(context, { body }, caller) {
    if (!context.gateway.listPaid) throw new OperatorError('reconcile_unavailable', `The ${context.gateway.name} gateway cannot list its paid sessions.`);
    const since = body.since === undefined ? context.clock.now() - RECONCILE_DAYS * DAY_MS : Date.parse(body.since);
    const { sessions, complete } = await context.gateway.listPaid(since, RECONCILE_LIMIT);
    const fulfilled: string[] = [];
    let alreadyFulfilled = 0;
    let unknown = 0;
    for (const paid of sessions) {
      // The keys' change records the audit entry (with the keys, when this fulfilment stored them).
      const reconciled: KeysChange = (work) =>
        operatorChange(context, caller, async (tx) => ({ result: await work(tx), audit: { action: 'order.reconciled', target: paid.id } }));
      const order = await context.storage.orders.get(paid.id);
      // A session this server did not create is left alone, unless it recovers one it did (fulfil adopts it).
      if (!order && paid.recoveredFrom === undefined) unknown++;
      else if (order && order.session.state === 'paid' && order.keys !== null && order.paidAt !== null) alreadyFulfilled++;
      else {
        const session = await fulfil(context, paid.id, paid, reconciled);
        if (session === null) unknown++;
        else if (session.state === 'paid') fulfilled.push(paid.id);
      }
    }
    return { since: new Date(since).toISOString(), checked: sessions.length, fulfilled, alreadyFulfilled, unknown, complete };
  },
});
