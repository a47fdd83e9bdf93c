/**
 * POST /api/v1/webhooks/gateway: notifications from the payment provider (operator-facing). The
 * gateway verifies the raw body; the core then fulfils the session once (fulfilment.ts), or applies a
 * refund or dispute to the order it paid for. Its endpoint is declared here, beside the operation, as the
 * probes' are (probes.ts): operator-facing, it is no row of the public table (endpoints.ts) nor a method
 * of the typed client.
 *
 * @module
 */
import type { AppContext, Operation } from '../context.ts';
import { type Endpoint, OPERATOR_TAG } from '../endpoint.ts';
import { ApiError } from '../http/errors.ts';
import { json } from '../http/http.ts';
import { applyPaymentEvent, fulfil } from '../licensing/fulfilment.ts';
import { GatewayEventSchema, SignatureHeaderSchema, WebhookAckSchema } from '../schemas/webhook.ts';

const encoder = new TextEncoder();

export const receiveGatewayNotificationEndpoint = {
  operationId: 'receiveGatewayNotification',
  method: 'POST',
  path: '/webhooks/gateway',
  versioned: true,
  tag: OPERATOR_TAG,
  summary: 'Receive a payment provider notification (operator-facing)',
  description: 'Called by the payment provider, never by the website or the desktop app. The signature header is ' +
    'verified over the raw body (Stripe: HMAC-SHA-256 of "<t>.<body>" with the endpoint secret, 300 s ' +
    'tolerance); anything unsigned is refused and changes nothing. A paid session gets its license keys ' +
    'here, once: a replayed event, or one racing a status poll, issues no second set.',
  headers: [{ name: 'Stripe-Signature', required: true, schema: SignatureHeaderSchema }],
  body: { schema: GatewayEventSchema, schemaName: 'GatewayEvent', required: true },
  success: { status: 200, description: 'The event was applied or ignored.', schema: WebhookAckSchema, schemaName: 'WebhookAck' },
  errors: ['invalid_request', 'invalid_signature', 'notifications_unavailable', 'payload_too_large'],
} as const satisfies Endpoint;

/** Applies one verified notification; replays and races with status polls change nothing more. */
export function gatewayWebhook(context: AppContext): Operation {
  return async (request) => {
    const { gateway, logger } = context;
    if (!gateway.readNotification) {
      throw new ApiError(
        'notifications_unavailable',
        `The payment gateway of this server (${gateway.name}) sends no notifications, so this path accepts none.`,
      );
    }
    const body = request.body;
    const raw = body === undefined ? new Uint8Array() : typeof body === 'string' ? encoder.encode(body) : body;
    if (raw.length > context.bodyLimit) {
      throw new ApiError('payload_too_large', `The request body is larger than the limit of ${context.bodyLimit} bytes.`);
    }
    const notification = await gateway.readNotification(request.headers, raw);
    const requestId = request.requestId ?? '';
    if (notification.ignored) {
      // Acknowledged, so the provider does not resend it for days; nothing of it is kept.
      context.count('gateway_event_ignored');
      logger.warn('gateway notification ignored', { requestId, event: notification.eventId, type: notification.type, reason: notification.ignored });
      return json(200, { received: true });
    }
    if (notification.payment) {
      const { ref, flag, dispute } = notification.payment;
      await applyPaymentEvent(context, { ref, flag, dispute, source: `${notification.type} ${notification.eventId}`, requestId });
    }
    const target = notification.session;
    if (!target) {
      // Another type of event, or one that changes no order (a partial refund): acknowledged, so not resent.
      if (!notification.payment) logger.info('gateway notification with nothing to do', { requestId, event: notification.eventId, type: notification.type });
      return json(200, { received: true });
    }
    const session = await fulfil(context, target.id, target);
    if (!session) {
      // A session this server did not create (another integration on the same account): nothing to do.
      logger.info('gateway notification for an unknown session ignored', {
        requestId: request.requestId,
        event: notification.eventId,
        type: notification.type,
      });
      return json(200, { received: true });
    }
    logger.info('gateway notification applied', {
      requestId: request.requestId,
      event: notification.eventId,
      type: notification.type,
      session: session.id,
      state: session.state,
    });
    return json(200, { received: true });
  };
}
