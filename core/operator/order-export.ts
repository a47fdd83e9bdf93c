/**
 * GET /orders/export: the paid orders of a period for accounting, oldest first, one row each (session, paid
 * at, buyer, SKU, amount, state, refunded amount), in pages; the Orders page's CSV and `orders export` read it.
 *
 * @module
 */
import * as v from 'valibot';
import { zeroLike } from '../formats/decimal.ts';
import type { Order } from '../ports/store-ports.ts';
import { CHECKOUT_SKUS } from '../ports/port-types.ts';
import { isoOrNull, IsoTime, QueryDigits } from './json-views.ts';
import { defineOperation } from './operation.ts';

/** The columns of the orders CSV, in order: the Orders page's file and `orders export` alike. */
export const ORDER_EXPORT_COLUMNS = ['sessionId', 'paidAt', 'email', 'name', 'sku', 'amount', 'currency', 'state', 'refundedAmount'] as const;

const MAX_LIMIT = 500;
/** Later than any order: 275760-09-13, the last time a JavaScript Date holds. */
const END_OF_TIME = 8.64e15;
const Timestamp = v.pipe(v.string(), v.isoTimestamp('must be an ISO 8601 timestamp such as 2026-11-01T00:00:00Z'), v.transform(Date.parse));
/** A page's `next`: the time (ms) and session id of its last order. */
const Cursor = v.pipe(
  v.string(),
  v.regex(/^\d{1,15}~.{1,255}$/, 'must be the next of the page before'),
  v.transform((text) => ({ at: Number(text.slice(0, text.indexOf('~'))), session: text.slice(text.indexOf('~') + 1) })),
);

export const OrderExportQuerySchema = v.strictObject({
  since: v.optional(Timestamp),
  until: v.optional(Timestamp),
  after: v.optional(Cursor),
  limit: v.optional(v.pipe(QueryDigits, v.minValue(1, `must be 1 to ${MAX_LIMIT}`), v.maxValue(MAX_LIMIT, `must be 1 to ${MAX_LIMIT}`))),
});

/** One order for accounting. */
export const OrderRecordSchema = v.object({
  sessionId: v.string(),
  paidAt: v.pipe(v.nullable(IsoTime), v.description('null for an order kept before fulfilment times were (it is placed by its creation time).')),
  email: v.nullable(v.string()),
  name: v.nullable(v.string()),
  sku: v.picklist(CHECKOUT_SKUS),
  amount: v.pipe(v.nullable(v.string()), v.description('What was paid, a decimal in the major unit ("49.00"); null for orders paid before amounts were kept.')),
  currency: v.nullable(v.string()),
  state: v.pipe(
    v.picklist(['paid', 'refunded', 'disputed', 'revoked']),
    v.description('refunded: refunded in full; disputed: a dispute not won; revoked: the operator revoked the licenses; else paid.'),
  ),
  refundedAmount: v.pipe(
    v.nullable(v.string()),
    v.description('The amount when refunded in full, else zero in its decimals; null when the amount is unknown.'),
  ),
});

export type OrderRecord = v.InferOutput<typeof OrderRecordSchema>;

/** What the money of an order came to: a full refund first, then a dispute not won, then the operator's revoke. */
function moneyState(order: Order): OrderRecord['state'] {
  const { standing } = order;
  if (standing.refunded) return 'refunded';
  if (standing.disputed && !standing.disputeWon) return 'disputed';
  return standing.override === 'revoked' ? 'revoked' : 'paid';
}

/** An order as one accounting row. */
export function orderRecord(order: Order): OrderRecord {
  const { amount } = order.purchase;
  return {
    sessionId: order.session.id,
    paidAt: isoOrNull(order.paidAt),
    email: order.purchase.email,
    name: order.purchase.name,
    sku: order.session.sku,
    amount,
    currency: order.purchase.currency,
    state: moneyState(order),
    refundedAmount: amount === null ? null : order.standing.refunded ? amount : zeroLike(amount),
  };
}

export const exportOrders = defineOperation({
  operationId: 'exportOrders',
  method: 'GET',
  path: '/orders/export',
  summary: 'Paid orders for accounting, oldest first, by when they were paid: since (included) and until (excluded), ' +
    'ISO 8601, all by default; limit (1-500, 500 by default) and after (the next of the page before).',
  query: OrderExportQuerySchema,
  output: v.object({
    entries: v.array(OrderRecordSchema),
    next: v.pipe(v.nullable(v.string()), v.description('Give it as `after` for the next page; null on the last page.')),
  }),
  status: 200,
  errors: ['invalid_query'],
  async run(context, { query }) {
    const limit = query.limit ?? MAX_LIMIT;
    const orders = await context.storage.orders.inPeriod({ from: query.since ?? 0, until: query.until ?? END_OF_TIME, after: query.after, limit });
    const last = orders.length === limit ? orders[orders.length - 1] : undefined;
    const next = last === undefined ? null : `${last.paidAt ?? last.session.createdAt}~${last.session.id}`;
    return { entries: orders.map(orderRecord), next };
  },
});
