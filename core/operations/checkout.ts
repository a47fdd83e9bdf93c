/**
 * POST /api/v1/checkout/create and GET /api/v1/checkout/status: hosted checkout and license delivery.
 *
 * @module
 */
import { readJsonObject } from '../http/body.ts';
import { createCheckoutGate } from '../budgets/checkout-cap.ts';
import { isFinal } from '../ports/checkout-state.ts';
import type { AppContext, Operation } from '../context.ts';
import { ApiError } from '../http/errors.ts';
import { json } from '../http/http.ts';
import { fulfil, licensesFor } from '../licensing/fulfilment.ts';
import { isRevoked } from '../ports/order-state.ts';
import type { CheckoutSession, LicenseKeys } from '../ports/ports.ts';
import type { CheckoutStatus } from '../schemas/responses.ts';
import { CheckoutCreateRequestSchema, SessionIdSchema } from '../schemas/requests.ts';
import { parseOrThrow, parseQueryOrThrow } from '../http/validate.ts';
import { clientKeyOf } from '../clients/client-ip.ts';

/**
 * Opens a hosted checkout session; an omitted body buys the standard product with no channel. A client
 * holding `openCheckoutsPerClient` open sessions is refused before the provider is called
 * (checkout-cap.ts). A client's open session is never handed out again: behind one shared address (an
 * office, a carrier's NAT) that would give one buyer another's session id, and so their license keys.
 */
export function createCheckout(context: AppContext): Operation {
  const gate = createCheckoutGate(context);
  return async (request) => {
    const body = readJsonObject(request, context.bodyLimit, false) ?? {};
    const input = parseOrThrow(CheckoutCreateRequestSchema, body);
    const sku = input.product ?? 'standard';
    const channel = input.channel ?? null;
    const owner = context.voterId(clientKeyOf(request));
    const { sessionId, url } = await gate(owner, async () => {
      const opened = await context.gateway.createCheckout({ sku, channel });
      const now = context.clock.now();
      const session: CheckoutSession = {
        id: opened.sessionId,
        sku,
        channel,
        url: opened.url,
        state: 'pending',
        createdAt: now,
        expiresAt: opened.expiresAt ?? now + context.checkoutTtlMs,
      };
      await context.storage.checkouts.createCheckout(session, owner);
      return opened;
    });
    context.count('checkout_created');
    return json(200, { sessionId, url });
  };
}

/**
 * Brings a stored session up to date with the provider's word; a session the provider still calls
 * pending past its expiry is expired. The provider is asked even then: a payment made just before the
 * expiry, not yet notified, must count. A session found paid is fulfilled (fulfilment.ts).
 */
async function refresh(context: AppContext, session: CheckoutSession): Promise<CheckoutSession> {
  if (isFinal(session.state)) return session;
  const report = await context.gateway.checkStatus(session);
  const status = report.status === 'pending' && context.clock.now() >= session.expiresAt ? 'expired' : report.status;
  if (status === session.state) return session;
  return (await fulfil(context, session.id, { ...report, status })) ?? session;
}

/** The status body of a paid order whose licenses are revoked: paid, and no key to hand out. */
const REVOKED: CheckoutStatus = { status: 'paid', licenseKey: null, standardLicenseKey: null, plusLicenseKey: null };

/** The status body of a paid session: licenseKey is the key of the product bought. */
function paidBody(keys: LicenseKeys): CheckoutStatus {
  return {
    status: 'paid',
    licenseKey: keys.standard ?? keys.plus,
    standardLicenseKey: keys.standard,
    plusLicenseKey: keys.plus,
  };
}

/** Reads a session's payment status; keys are issued once, when it is paid, and never shown before. */
export function checkoutStatus(context: AppContext): Operation {
  return async (request) => {
    const ids = new URLSearchParams(request.query ?? '').getAll('session_id');
    if (ids.length > 1) throw new ApiError('invalid_request', 'Query parameter "session_id" is given more than once.');
    const id = parseQueryOrThrow(SessionIdSchema, 'session_id', ids[0]);
    const stored = await context.storage.checkouts.getCheckout(id);
    if (!stored) throw new ApiError('unknown_session', 'No checkout session has this session_id.');
    const session = await refresh(context, stored);
    switch (session.state) {
      case 'expired':
        throw new ApiError('session_expired', 'The checkout session expired before it was paid.');
      case 'failed':
        throw new ApiError('payment_failed', 'The payment for this checkout session failed.');
      case 'paid': {
        // A revoked order (refunded, disputed, or revoked by the operator) shows no keys: docs/decisions.md.
        const order = await context.storage.orders.get(session.id);
        if (order && isRevoked(order.standing)) return json(200, REVOKED);
        return json(200, paidBody(order?.keys ?? (await licensesFor(context, session, order?.purchase ?? null))));
      }
      default:
        return json(200, { status: session.state, licenseKey: null, standardLicenseKey: null, plusLicenseKey: null });
    }
  };
}
