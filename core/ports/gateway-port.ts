/**
 * The payment gateway port: what the core needs from a payment provider (Stripe, the simulator).
 * Re-exported by ports.ts with the other ports.
 *
 * @module
 */
import type { CoreRequest, CoreResponse, HeaderMap } from '../http/http.ts';
import type { CheckoutChannel, CheckoutSession, CheckoutSku, CheckoutState } from './port-types.ts';

/** What the payment provider says of a session. */
export type GatewayStatus = CheckoutState;

/** What the core lends a gateway's pages: public answers read in process, as a site reads them over HTTP. */
export interface GatewayPages {
  /** The answer of GET /api/v1/checkout/status to this request's `session_id` (a refusal as its JSON error answer). */
  checkoutStatus(request: CoreRequest): Promise<CoreResponse>;
}

/** A route a gateway serves itself (the simulator's pages, a provider's notifications). */
export interface GatewayRoute {
  method: 'GET' | 'POST';
  /** A path, or a pattern whose `:name` segments match one segment each, e.g. `/checkout/simulator/:id`. */
  path: string;
  handle(request: CoreRequest, params: Record<string, string>, pages: GatewayPages): Promise<CoreResponse>;
}

/**
 * What the provider says of a paid session's buyer and payment (Stripe: the Checkout Session's
 * `customer_details` and `payment_intent`). Kept with the order, never shown on the public API.
 */
export interface Purchase {
  email: string | null;
  name: string | null;
  /** ISO 3166-1 alpha-2, e.g. "DE". */
  country: string | null;
  /** The provider's id of the payment (Stripe: the PaymentIntent), which refunds and disputes name. */
  paymentRef: string | null;
  /** What was paid, in the currency's major unit as a decimal ("49.00"), and its ISO 4217 code ("USD"). */
  amount: string | null;
  currency: string | null;
}

/** What the provider says of a session: its state and, once known, its purchase. */
export interface GatewayReport {
  status: GatewayStatus;
  purchase?: Purchase | undefined;
  /**
   * The session this one recovers, when the provider made it from an expired one (Stripe's abandoned-checkout
   * recovery, `recovered_from`): fulfilment adopts it with the original's product (core/licensing/fulfilment.ts).
   */
  recoveredFrom?: string | undefined;
}

/**
 * What a refund or dispute says of a payment (core/ports/order-state.ts): fully refunded, disputed, or a
 * dispute the seller won.
 */
export type PaymentFlag = 'refunded' | 'disputed' | 'dispute_won';

/** A provider notification, verified and read. */
export interface GatewayNotification {
  /** The provider's event id, for logs. */
  eventId: string;
  /** The provider's event type, e.g. `checkout.session.completed`. */
  type: string;
  /** The session the event concerns and what it reports; null for an event that changes no session. */
  session: ({ id: string } & GatewayReport) | null;
  /**
   * The payment a refund or dispute event concerns, and the provider's id of the dispute (events of one
   * dispute, in any order, end the same; a new dispute after a won one counts again); absent for other events.
   */
  payment?: { ref: string; flag: PaymentFlag; dispute?: string | undefined } | undefined;
  /**
   * Why a correctly signed event must change nothing, when it must not: `livemode_mismatch`, a test event
   * sent to a server on a live key or a live event to one on a test key. The core acknowledges it (200, so
   * the provider does not retry for days), stores nothing, counts it and logs it.
   */
  ignored?: 'livemode_mismatch' | undefined;
}

/** A session the provider has as paid (for reconciliation). */
export interface PaidSession extends GatewayReport {
  id: string;
}

/** A hosted-checkout payment provider. */
export interface PaymentGateway {
  /** Shown in logs, e.g. "simulator". */
  readonly name: string;
  /**
   * Takes no money (the payment simulator): the keys of its sessions are marked as such (`sim/`), so that
   * no desktop app accepts them as licenses.
   */
  readonly simulated?: boolean;
  /**
   * Opens a hosted checkout for one SKU; the provider chooses the session id. A provider that closes
   * unpaid sessions itself says when (`expiresAt`, ms since the epoch); otherwise the app's TTL applies.
   * Throws ApiError internal_error (with advice to retry) when the provider cannot be reached.
   */
  createCheckout(input: { sku: CheckoutSku; channel: CheckoutChannel | null }): Promise<{
    sessionId: string;
    url: string;
    expiresAt?: number;
  }>;
  /** The provider's current view of a session that is not final in storage. */
  checkStatus(session: CheckoutSession): Promise<GatewayReport>;
  /**
   * The sessions the provider has as paid, created at or after `since` (ms since the epoch), newest
   * first, at most `limit`; `complete` is false when there were more. Absent when the provider cannot list.
   */
  listPaid?(since: number, limit: number): Promise<{ sessions: PaidSession[]; complete: boolean }>;
  /**
   * Verifies and reads one notification the provider POSTs to /api/v1/webhooks/gateway, from its raw
   * bytes. Throws ApiError invalid_signature when it is not authentic. Absent when the gateway sends none.
   */
  readNotification?(headers: HeaderMap, rawBody: Uint8Array): Promise<GatewayNotification>;
  /** Extra routes mounted by the core under the same rate limit; their paths begin with /checkout/ (see isAppPath). */
  readonly routes?: readonly GatewayRoute[];
}
