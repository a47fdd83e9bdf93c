/**
 * Outbound events on the operator API: register endpoints (each with its own signing secret, shown once),
 * turn them off and on, read the delivery log, and replay a delivery.
 *
 * @module
 */
import * as v from 'valibot';
import { readJsonObject } from '../body.ts';
import { json } from '../http.ts';
import { parseOrThrow } from '../validate.ts';
import { createEndpointSecret } from '../webhooks/sign.ts';
import { EVENT_TYPES, type Delivery } from '../webhooks/ports.ts';
import { endpointRefusal, STRICT_WEBHOOK_ADDRESSES } from '../webhooks/address.ts';
import { recordChange, type OperatorContext, type OperatorHandler } from './context.ts';
import { OperatorError } from './errors.ts';
import { queryOf } from './inbox.ts';

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 500;

const EndpointUrl = v.pipe(v.string(), v.url('must be an absolute URL'), v.regex(/^https?:\/\//, 'must be an http:// or https:// URL'), v.maxLength(2000));
const EventTypes = v.pipe(v.array(v.picklist(EVENT_TYPES, `must be one of ${EVENT_TYPES.join(', ')}`)), v.maxLength(EVENT_TYPES.length));

export const AddEndpointSchema = v.strictObject({
  url: EndpointUrl,
  events: v.optional(EventTypes, []),
  format: v.optional(v.picklist(['standard', 'slack'], 'must be standard or slack'), 'standard'),
});

export const EditEndpointSchema = v.pipe(
  v.strictObject({ url: v.optional(EndpointUrl), events: v.optional(EventTypes), enabled: v.optional(v.boolean()) }),
  v.minEntries(1, 'must give at least one of url, events, enabled'),
);

const Digits = v.pipe(v.string(), v.regex(/^\d{1,15}$/, 'must be a whole number'), v.transform(Number));
export const DeliveryQuerySchema = v.strictObject({
  state: v.optional(v.picklist(['pending', 'delivered', 'failed'], 'must be pending, delivered or failed')),
  before: v.optional(Digits),
  limit: v.optional(v.pipe(Digits, v.minValue(1), v.maxValue(MAX_LIMIT))),
});

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const deliveryView = (d: Delivery) => ({
  ...d,
  createdAt: iso(d.createdAt),
  nextAttemptAt: iso(d.nextAttemptAt),
  lastAttemptAt: iso(d.lastAttemptAt),
  deliveredAt: iso(d.deliveredAt),
});
const endpointView = <T extends { createdAt: number }>(e: T) => ({ ...e, createdAt: iso(e.createdAt) });

function idOf(params: Record<string, string>, code: 'endpoint_not_found' | 'delivery_not_found'): number {
  const text = params['id'] ?? '';
  if (!/^[1-9]\d{0,14}$/.test(text)) throw new OperatorError(code, `No ${code === 'endpoint_not_found' ? 'endpoint' : 'delivery'} has id ${JSON.stringify(text)}.`);
  return Number(text);
}

export function listEndpoints(context: OperatorContext): OperatorHandler {
  return async () => json(200, { endpoints: (await context.storage.outbox.listEndpoints()).map(endpointView) });
}

/** Refuses an endpoint URL this server may not send to (server-side request forgery). */
async function checkAddress(context: OperatorContext, url: string): Promise<void> {
  const refusal = await endpointRefusal(context.webhookAddresses ?? STRICT_WEBHOOK_ADDRESSES, url);
  if (refusal !== null) throw new OperatorError('webhook_address_refused', `Events are not sent to ${JSON.stringify(url)}: ${refusal}.`);
}

export function addEndpoint(context: OperatorContext): OperatorHandler {
  return async (request) => {
    const input = parseOrThrow(AddEndpointSchema, readJsonObject(request, context.bodyLimit, true));
    await checkAddress(context, input.url);
    const secret = createEndpointSecret();
    const endpoint = await context.storage.outbox.addEndpoint({ ...input, secret, createdAt: context.clock.now() });
    await recordChange(context, request, 'webhook.added', `${endpoint.id}: ${endpoint.url}`);
    // The only time the secret is shown: the receiver keeps it to verify signatures.
    return json(201, { ...endpointView(endpoint), secret });
  };
}

export function editEndpoint(context: OperatorContext): OperatorHandler {
  return async (request, params) => {
    const id = idOf(params, 'endpoint_not_found');
    const change = parseOrThrow(EditEndpointSchema, readJsonObject(request, context.bodyLimit, true));
    if (change.url !== undefined) await checkAddress(context, change.url);
    const endpoint = await context.storage.outbox.updateEndpoint(id, change);
    if (!endpoint) throw new OperatorError('endpoint_not_found', `No endpoint has id ${id}.`);
    const described = Object.entries(change).map(([name, value]) => `${name}=${Array.isArray(value) ? value.join('|') : String(value)}`);
    await recordChange(context, request, 'webhook.edited', `${id}: ${described.join(', ')}`);
    return json(200, endpointView(endpoint));
  };
}

export function listDeliveries(context: OperatorContext): OperatorHandler {
  return async (request) => {
    const filter = parseOrThrow(DeliveryQuerySchema, queryOf(request));
    const limit = filter.limit ?? DEFAULT_LIMIT;
    const deliveries = await context.storage.outbox.listDeliveries({ ...filter, limit });
    const next = deliveries.length === limit ? deliveries[deliveries.length - 1]!.id : null;
    return json(200, { deliveries: deliveries.map(deliveryView), next });
  };
}

export function replayDelivery(context: OperatorContext): OperatorHandler {
  return async (request, params) => {
    const id = idOf(params, 'delivery_not_found');
    const delivery = await context.storage.outbox.replay(id, context.clock.now());
    if (!delivery) throw new OperatorError('delivery_not_found', `No delivery has id ${id}.`);
    await recordChange(context, request, 'webhook.replayed', `${id}: ${delivery.eventId} to ${delivery.url}`);
    return json(200, deliveryView(delivery));
  };
}
