/**
 * The webhook endpoints' upkeep on the operator API: send one endpoint a test event, delete an endpoint,
 * rotate its signing secret (the old one keeps signing beside the new for a grace period), and replay
 * every failed delivery after a receiver's outage.
 *
 * @module
 */
import * as v from 'valibot';
import { createEndpointSecret } from '../webhooks/sign.ts';
import { operatorChange } from './context.ts';
import { OperatorError } from './errors.ts';
import { isoOrNull, IsoTime } from './json-views.ts';
import { defineOperation } from './operation.ts';
import { DeliverySchema, deliveryView, EndpointSchema, endpointView, idOf } from './webhooks.ts';

/** How many failed deliveries one "replay failed" makes pending again, at most (call it again for the rest). */
export const REPLAY_FAILED_CAP = 1000;

/** How long an old secret keeps signing after a rotation, unless told otherwise (Stripe's longest: 24 h). */
export const DEFAULT_GRACE_HOURS = 24;

const HOUR_MS = 3_600_000;

export const RotateSecretSchema = v.strictObject({
  graceHours: v.optional(v.pipe(v.number('must be a number of hours'), v.integer('must be whole hours'), v.minValue(0), v.maxValue(DEFAULT_GRACE_HOURS))),
});

export const ReplayFailedSchema = v.strictObject({
  endpointId: v.optional(v.pipe(v.number('must be an endpoint id'), v.integer('must be an endpoint id'), v.minValue(1))),
});

export const sendWebhookTest = defineOperation({
  operationId: 'sendWebhookTest',
  method: 'POST',
  path: '/webhooks/:id/test',
  summary: 'Send one endpoint a webhook.test event now: signed and retried like every event, in the delivery log; ' +
    'no change is made and no other endpoint gets it.',
  output: DeliverySchema,
  status: 202,
  errors: ['endpoint_not_found', 'endpoint_disabled'],
  async run(context, { params }, caller) {
    const id = idOf(params.id, 'endpoint_not_found');
    const missing = () => new OperatorError('endpoint_not_found', `No webhook endpoint has id ${id}.`);
    const data = { endpointId: id, message: 'A test event sent by the operator: nothing happened.' };
    const delivery = await operatorChange(context, caller, async (tx) => {
      const endpoint = (await tx.outbox.listEndpoints()).find((e) => e.id === id);
      if (!endpoint) throw missing();
      if (!endpoint.enabled) throw new OperatorError('endpoint_disabled', `Endpoint ${id} is disabled: a test event would wait until it is enabled.`);
      const sent = await tx.outbox.sendTest(id, data, context.clock.now());
      if (!sent) throw missing();
      return { result: sent, audit: { action: 'webhook.tested', target: `${id}: ${sent.eventId} to ${sent.url}` } };
    });
    return deliveryView(delivery);
  },
});

export const deleteWebhookEndpoint = defineOperation({
  operationId: 'deleteWebhookEndpoint',
  method: 'DELETE',
  path: '/webhooks/:id',
  summary: 'Delete an endpoint and its delivery log: its pending deliveries are never sent, its secret is forgotten. ' +
    'The audit trail keeps its address and how many deliveries went with it.',
  output: v.object({ deleted: EndpointSchema, droppedDeliveries: v.number() }),
  status: 200,
  errors: ['endpoint_not_found'],
  async run(context, { params }, caller) {
    const id = idOf(params.id, 'endpoint_not_found');
    const outcome = await operatorChange(context, caller, async (tx) => {
      const deleted = await tx.outbox.deleteEndpoint(id);
      if (!deleted) throw new OperatorError('endpoint_not_found', `No webhook endpoint has id ${id}.`);
      return { result: deleted, audit: { action: 'webhook.deleted', target: `${id}: ${deleted.endpoint.url} (${deleted.dropped} deliveries deleted)` } };
    });
    return { deleted: endpointView(outcome.endpoint), droppedDeliveries: outcome.dropped };
  },
});

export const rotateWebhookSecret = defineOperation({
  operationId: 'rotateWebhookSecret',
  method: 'POST',
  path: '/webhooks/:id/rotate-secret',
  summary: `Give an endpoint a new signing secret, shown this once. For graceHours (0-${DEFAULT_GRACE_HOURS}, ${DEFAULT_GRACE_HOURS}) ` +
    'each attempt is signed with both, so the receiver can switch without losing an event; 0 ends the old one at once.',
  body: RotateSecretSchema,
  bodyOptional: true,
  output: v.object({
    ...EndpointSchema.entries,
    secret: v.pipe(v.string(), v.description('whsec_...: shown this once.')),
    previousSecretValidUntil: v.pipe(v.nullable(IsoTime), v.description('Until when the old secret signs too; null: not at all.')),
  }),
  status: 200,
  errors: ['endpoint_not_found'],
  async run(context, { params, body }, caller) {
    const id = idOf(params.id, 'endpoint_not_found');
    const grace = body.graceHours ?? DEFAULT_GRACE_HOURS;
    const until = grace === 0 ? null : context.clock.now() + grace * HOUR_MS;
    const secret = createEndpointSecret();
    const old = until === null ? 'ended at once' : `valid until ${new Date(until).toISOString()}`;
    const endpoint = await operatorChange(context, caller, async (tx) => {
      const rotated = await tx.outbox.rotateSecret(id, secret, until);
      if (!rotated) throw new OperatorError('endpoint_not_found', `No webhook endpoint has id ${id}.`);
      return { result: rotated, audit: { action: 'webhook.secret_rotated', target: `${id}: ${rotated.url} (old secret ${old})` } };
    });
    // The only time the new secret is shown, as on creation.
    return { ...endpointView(endpoint), secret, previousSecretValidUntil: isoOrNull(until) };
  },
});

export const replayFailedWebhookDeliveries = defineOperation({
  operationId: 'replayFailedWebhookDeliveries',
  method: 'POST',
  path: '/webhooks/deliveries/replay-failed',
  summary: `After a receiver's outage: make up to ${REPLAY_FAILED_CAP} failed deliveries (oldest first; of one endpoint with ` +
    '{"endpointId": id}) pending again from their first attempt, same webhook-id and body. Only failed ones; ' +
    'remaining says how many failed ones are left for another call.',
  body: ReplayFailedSchema,
  bodyOptional: true,
  output: v.object({ replayed: v.number(), remaining: v.number() }),
  status: 200,
  errors: [],
  async run(context, { body }, caller) {
    const endpointId = body.endpointId ?? null;
    const scope = endpointId === null ? 'every endpoint' : `endpoint ${endpointId}`;
    return operatorChange(context, caller, async (tx) => {
      const outcome = await tx.outbox.replayFailed(context.clock.now(), REPLAY_FAILED_CAP, endpointId);
      // Nothing replayed, nothing changed: no audit entry.
      const { replayed, remaining } = outcome;
      return {
        result: outcome,
        audit: replayed === 0 ? null : { action: 'webhook.replayed_failed', target: `${replayed} failed deliveries of ${scope} (${remaining} left)` },
      };
    });
  },
});
