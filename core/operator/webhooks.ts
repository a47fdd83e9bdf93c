/**
 * Outbound events on the operator API: register endpoints (each with its own signing secret, shown once),
 * turn them off and on, read the delivery log, and replay a delivery (webhook-admin.ts: test, delete, rotate
 * a secret, replay every failed delivery).
 *
 * @module
 */
import * as v from 'valibot';
import { createEndpointSecret } from '../webhooks/sign.ts';
import { endpointRefusal, STRICT_WEBHOOK_ADDRESSES } from '../webhooks/address.ts';
import { DELIVERED_TYPES, type Delivery, EVENT_TYPES, type WebhookEndpoint } from '../ports/events.ts';
import { operatorChange, type OperatorContext } from './context.ts';
import { OperatorError } from './errors.ts';
import { storedIdOf } from './path-param.ts';
import { isoOrNull, IsoTime, NextCursor, nextOf, QueryDigits } from './json-views.ts';
import { defineOperation } from './operation.ts';

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

export const DeliveryQuerySchema = v.strictObject({
  state: v.optional(v.picklist(['pending', 'delivered', 'failed'], 'must be pending, delivered or failed')),
  before: v.optional(QueryDigits),
  limit: v.optional(v.pipe(QueryDigits, v.minValue(1), v.maxValue(MAX_LIMIT))),
});

/** An endpoint as the operator API shows it (never its secret, but when it is added). */
export const EndpointSchema = v.object({
  id: v.number(),
  url: v.string(),
  events: v.array(v.picklist(EVENT_TYPES)),
  format: v.picklist(['standard', 'slack']),
  enabled: v.boolean(),
  createdAt: IsoTime,
});

/** A delivery of one event to one endpoint, as the log shows it. */
export const DeliverySchema = v.object({
  id: v.number(),
  eventId: v.string(),
  type: v.picklist(DELIVERED_TYPES),
  endpointId: v.number(),
  url: v.string(),
  state: v.picklist(['pending', 'delivered', 'failed']),
  attempts: v.number(),
  createdAt: IsoTime,
  nextAttemptAt: v.nullable(IsoTime),
  lastAttemptAt: v.nullable(IsoTime),
  lastStatus: v.nullable(v.number()),
  lastError: v.nullable(v.string()),
  deliveredAt: v.nullable(IsoTime),
});

export const deliveryView = (d: Delivery): v.InferOutput<typeof DeliverySchema> => ({
  ...d,
  createdAt: new Date(d.createdAt).toISOString(),
  nextAttemptAt: isoOrNull(d.nextAttemptAt),
  lastAttemptAt: isoOrNull(d.lastAttemptAt),
  deliveredAt: isoOrNull(d.deliveredAt),
});
export const endpointView = (e: WebhookEndpoint): v.InferOutput<typeof EndpointSchema> => ({
  id: e.id,
  url: e.url,
  events: e.events,
  format: e.format,
  enabled: e.enabled,
  createdAt: new Date(e.createdAt).toISOString(),
});

/** A webhook endpoint's or delivery's id as the path gives it, else 404 with `code`. */
export function idOf(text: string, code: 'endpoint_not_found' | 'delivery_not_found'): number {
  return storedIdOf(text, code, code === 'endpoint_not_found' ? 'webhook endpoint' : 'webhook delivery');
}

export const listWebhookEndpoints = defineOperation({
  operationId: 'listWebhookEndpoints',
  method: 'GET',
  path: '/webhooks',
  summary: 'The endpoints outbound events are sent to (without their secrets).',
  output: v.object({ endpoints: v.array(EndpointSchema) }),
  status: 200,
  errors: [],
  run: async (context) => ({ endpoints: (await context.storage.outbox.listEndpoints()).map(endpointView) }),
});

/** Refuses an endpoint URL this server may not send to (server-side request forgery). */
async function checkAddress(context: OperatorContext, url: string): Promise<void> {
  const refusal = await endpointRefusal(context.webhookAddresses ?? STRICT_WEBHOOK_ADDRESSES, url);
  if (refusal !== null) throw new OperatorError('webhook_address_refused', `Events are not sent to ${JSON.stringify(url)}: ${refusal}.`);
}

export const addWebhookEndpoint = defineOperation({
  operationId: 'addWebhookEndpoint',
  method: 'POST',
  path: '/webhooks',
  summary: 'Register an endpoint ({url, events?, format?}: events empty for every type; format standard or slack). ' +
    'The answer holds its signing secret (whsec_...), shown this once.',
  body: AddEndpointSchema,
  output: v.object({ ...EndpointSchema.entries, secret: v.pipe(v.string(), v.description('whsec_...: shown this once.')) }),
  status: 201,
  errors: ['webhook_address_refused'],
  async run(context, { body }, caller) {
    await checkAddress(context, body.url);
    const secret = createEndpointSecret();
    const endpoint = await operatorChange(context, caller, async (tx) => {
      const added = await tx.outbox.addEndpoint({ ...body, secret, createdAt: context.clock.now() });
      return { result: added, audit: { action: 'webhook.added', target: `${added.id}: ${added.url}` } };
    });
    // The only time the secret is shown: the receiver keeps it to verify signatures.
    return { ...endpointView(endpoint), secret };
  },
});

export const editWebhookEndpoint = defineOperation({
  operationId: 'editWebhookEndpoint',
  method: 'PATCH',
  path: '/webhooks/:id',
  summary: 'Change some of url, events and enabled (false: no new deliveries to it).',
  body: EditEndpointSchema,
  output: EndpointSchema,
  status: 200,
  errors: ['endpoint_not_found', 'webhook_address_refused'],
  async run(context, { params, body }, caller) {
    const id = idOf(params.id, 'endpoint_not_found');
    if (body.url !== undefined) await checkAddress(context, body.url);
    const changes = Object.entries(body).map(([name, value]) => `${name}=${Array.isArray(value) ? value.join('|') : String(value)}`);
    const endpoint = await operatorChange(context, caller, async (tx) => {
      const edited = await tx.outbox.updateEndpoint(id, body);
      if (!edited) throw new OperatorError('endpoint_not_found', `No webhook endpoint has id ${id}.`);
      return { result: edited, audit: { action: 'webhook.edited', target: `${id}: ${changes.join(', ')}` } };
    });
    return endpointView(endpoint);
  },
});

export const listWebhookDeliveries = defineOperation({
  operationId: 'listWebhookDeliveries',
  method: 'GET',
  path: '/webhooks/deliveries',
  summary: 'The delivery log, newest first: state (pending|delivered|failed), limit (1-500, 50), before (the next of the page before).',
  query: DeliveryQuerySchema,
  output: v.object({ deliveries: v.array(DeliverySchema), next: NextCursor }),
  status: 200,
  errors: ['invalid_query'],
  async run(context, { query }) {
    const limit = query.limit ?? DEFAULT_LIMIT;
    const deliveries = await context.storage.outbox.listDeliveries({ ...query, limit });
    return { deliveries: deliveries.map(deliveryView), next: nextOf(deliveries, limit) };
  },
});

export const replayWebhookDelivery = defineOperation({
  operationId: 'replayWebhookDelivery',
  method: 'POST',
  path: '/webhooks/deliveries/:id/replay',
  summary: 'Send a delivery again now, from its first attempt, with the same webhook-id and body.',
  output: DeliverySchema,
  status: 200,
  errors: ['delivery_not_found'],
  async run(context, { params }, caller) {
    const id = idOf(params.id, 'delivery_not_found');
    const delivery = await operatorChange(context, caller, async (tx) => {
      const replayed = await tx.outbox.replay(id, context.clock.now());
      if (!replayed) throw new OperatorError('delivery_not_found', `No webhook delivery has id ${id}.`);
      return { result: replayed, audit: { action: 'webhook.replayed', target: `${id}: ${replayed.eventId} to ${replayed.url}` } };
    });
    return deliveryView(delivery);
  },
});
