/**
 * The operator's orders: find by the buyer's email or the session, show one with its keys, issue the
 * Plus key of a standard order (upgrade), revoke and reinstate its licenses, and reconcile the sessions
 * the provider has as paid with what this server fulfilled. Each change goes to the audit trail and the log.
 *
 * @module
 */
import * as v from 'valibot';
import { readJsonObject } from '../body.ts';
import { DAY_MS } from '../budgets.ts';
import { fulfil, licensesFor } from '../fulfilment.ts';
import { json } from '../http.ts';
import { isRevoked, type OrderOverride } from '../order-state.ts';
import type { Order } from '../store-ports.ts';
import { parseOrThrow } from '../validate.ts';
import { licenseVerdict } from '../webhooks/events.ts';
import { recordChange, type OperatorContext, type OperatorHandler } from './context.ts';
import { OperatorError } from './errors.ts';
import { queryOf } from './inbox.ts';
import { orderView } from './order-view.ts';

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 500;
/** How far back `orders reconcile` looks by default: a week, past Stripe's three days of webhook retries. */
const RECONCILE_DAYS = 7;
/** The most paid sessions one reconcile goes through. */
const RECONCILE_LIMIT = 1000;

const Digits = v.pipe(v.string(), v.regex(/^\d{1,4}$/, 'must be a whole number'), v.transform(Number));
export const OrdersQuerySchema = v.strictObject({
  email: v.optional(v.pipe(v.string(), v.minLength(3, 'must be an email address'), v.maxLength(320, 'must be at most 320 characters'))),
  session: v.optional(v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(255, 'must be at most 255 characters'))),
  limit: v.optional(v.pipe(Digits, v.minValue(1, `must be 1 to ${MAX_LIMIT}`), v.maxValue(MAX_LIMIT, `must be 1 to ${MAX_LIMIT}`))),
});

export const ReasonSchema = v.strictObject({ reason: v.optional(v.pipe(v.string(), v.regex(/\S/, 'must not be blank'), v.maxLength(500, 'must be at most 500 characters'))) });

export const ReconcileSchema = v.strictObject({
  since: v.optional(v.pipe(v.string(), v.isoTimestamp('must be an ISO 8601 timestamp such as 2026-11-01T00:00:00Z'))),
});

/** The order of the path's session, paid: else 404 order_not_found or 409 order_not_paid. */
async function paidOrder(context: OperatorContext, params: Record<string, string>): Promise<Order> {
  const id = params['session'] ?? '';
  const order = await context.storage.orders.get(id);
  if (!order) throw new OperatorError('order_not_found', `No checkout session has id ${JSON.stringify(id)}.`);
  if (order.session.state !== 'paid') throw new OperatorError('order_not_paid', `Checkout session ${id} is ${order.session.state}, not paid.`);
  return order;
}

export function listOrders(context: OperatorContext): OperatorHandler {
  return async (request) => {
    const query = parseOrThrow(OrdersQuerySchema, queryOf(request));
    const orders = await context.storage.orders.find({ email: query.email, session: query.session, limit: query.limit ?? DEFAULT_LIMIT });
    return json(200, { orders: orders.map(orderView) });
  };
}

export function showOrder(context: OperatorContext): OperatorHandler {
  return async (_request, params) => {
    const order = await context.storage.orders.get(params['session'] ?? '');
    if (!order) throw new OperatorError('order_not_found', `No checkout session has id ${JSON.stringify(params['session'] ?? '')}.`);
    return json(200, orderView(order));
  };
}

/** Issues the Plus key of a paid order that has none; an order that has one is answered as it is. */
export function upgradeOrder(context: OperatorContext): OperatorHandler {
  return async (request, params) => {
    const order = await paidOrder(context, params);
    const { session } = order;
    if (isRevoked(order.standing)) throw new OperatorError('order_revoked', `The licenses of ${session.id} are revoked.`);
    const keys = order.keys ?? (await licensesFor(context, session, order.purchase));
    if (keys.plus === null) {
      const plus = await context.licenses.issue({ sessionId: session.id, sku: session.sku, product: 'plus', issuedAt: context.clock.now(), simulated: context.gateway.simulated === true });
      const saved = await context.storage.orders.addPlusKey(session.id, plus);
      if (saved?.stored) {
        context.count('license_issued');
        await recordChange(context, request, 'order.upgraded', session.id);
      }
    }
    return json(200, orderView((await context.storage.orders.get(session.id))!));
  };
}

/** Revokes or reinstates an order's licenses by the operator's word; nothing changes when they already are. */
export function overrideOrder(override: OrderOverride) {
  return (context: OperatorContext): OperatorHandler =>
    async (request, params) => {
      const input = parseOrThrow(ReasonSchema, readJsonObject(request, context.bodyLimit, false) ?? {});
      const order = await paidOrder(context, params);
      const wanted = override === 'revoked';
      if (isRevoked(order.standing) === wanted) return json(200, orderView(order));
      const reason = input.reason?.trim() ?? null;
      const verdict = (changed: Order) => {
        const draft = licenseVerdict(order.standing, changed, reason === null ? 'by the operator' : `by the operator: ${reason}`);
        return draft && { event: draft, at: context.clock.now() };
      };
      const after = await context.storage.orders.override(order.session.id, override, reason, context.clock.now(), verdict);
      await recordChange(context, request, `order.${override}`, input.reason === undefined ? order.session.id : `${order.session.id}: ${input.reason.trim()}`);
      return json(200, orderView(after ?? order));
    };
}

/** What POST /orders/reconcile answers (the orders page and the orders command read it). */
export interface Reconciled {
  since: string;
  checked: number;
  fulfilled: string[];
  alreadyFulfilled: number;
  unknown: number;
  complete: boolean;
}

/**
 * Finds the sessions the provider has as paid since `since` (a week by default) that this server did
 * not fulfil (not paid here, no keys, or no purchase kept), and fulfils them with the function the
 * notifications use. Sessions this server did not create are counted and left alone.
 */
export function reconcileOrders(context: OperatorContext): OperatorHandler {
  return async (request) => {
    const input = parseOrThrow(ReconcileSchema, readJsonObject(request, context.bodyLimit, false) ?? {});
    if (!context.gateway.listPaid) throw new OperatorError('reconcile_unavailable', `The ${context.gateway.name} gateway cannot list its paid sessions.`);
    const since = input.since === undefined ? context.clock.now() - RECONCILE_DAYS * DAY_MS : Date.parse(input.since);
    const { sessions, complete } = await context.gateway.listPaid(since, RECONCILE_LIMIT);
    const fulfilled: string[] = [];
    let alreadyFulfilled = 0;
    let unknown = 0;
    for (const paid of sessions) {
      const order = await context.storage.orders.get(paid.id);
      if (!order) unknown++;
      else if (order.session.state === 'paid' && order.keys !== null && order.paidAt !== null) alreadyFulfilled++;
      else if ((await fulfil(context, paid.id, paid))?.state === 'paid') {
        fulfilled.push(paid.id);
        await recordChange(context, request, 'order.reconciled', paid.id);
      }
    }
    const summary: Reconciled = { since: new Date(since).toISOString(), checked: sessions.length, fulfilled, alreadyFulfilled, unknown, complete };
    return json(200, summary);
  };
}
