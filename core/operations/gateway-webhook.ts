/**
 * POST /api/v1/webhooks/gateway: notifications from the payment provider (operator-facing). The
 * gateway verifies the raw body; the core then fulfils the session once (fulfilment.ts), or applies a
 * refund or dispute to the order it paid for.
 *
 * @module
 */
import type { AppContext, Operation } from '../context.ts';
import { ApiError } from '../http/errors.ts';
import { json } from '../http/http.ts';
import { applyPaymentEvent, fulfil } from '../licensing/fulfilment.ts';

const encoder = new TextEncoder();

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
      logger.info('gateway notification for an unknown session ignored', { requestId: request.requestId, event: notification.eventId, type: notification.type });
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
