/**
 * The payment gateway port: what the core needs from a payment provider (Stripe, the simulator).
 * Re-exported by ports.ts with the other ports.
 *
 * @module
 */
import type { CoreRequest, CoreResponse, HeaderMap } from './http.ts';
import type { CheckoutChannel, CheckoutSession, CheckoutSku, CheckoutState } from './port-types.ts';

/** What the payment provider says of a session. */
export type GatewayStatus = CheckoutState;

/** A route a gateway serves itself (the simulator's pages, a provider's notifications). */
export interface GatewayRoute {
  method: 'GET' | 'POST';
  /** A path, or a pattern whose `:name` segments match one segment each, e.g. `/checkout/simulator/:id`. */
  path: string;
  handle(request: CoreRequest, params: Record<string, string>): Promise<CoreResponse>;
}

/** A provider notification, verified and read. */
export interface GatewayNotification {
  /** The provider's event id, for logs. */
  eventId: string;
  /** The provider's event type, e.g. `checkout.session.completed`. */
  type: string;
  /** The session the event concerns and the state it reports; null for an event that changes no session. */
  session: { id: string; status: GatewayStatus } | null;
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
  checkStatus(session: CheckoutSession): Promise<GatewayStatus>;
  /**
   * Verifies and reads one notification the provider POSTs to /api/v1/webhooks/gateway, from its raw
   * bytes. Throws ApiError invalid_signature when it is not authentic. Absent when the gateway sends none.
   */
  readNotification?(headers: HeaderMap, rawBody: Uint8Array): Promise<GatewayNotification>;
  /** Extra routes mounted by the core under the same rate limit; their paths begin with /checkout/ (see isAppPath). */
  readonly routes?: readonly GatewayRoute[];
}
