/**
 * Where the orders are kept (every storage has one): the paid checkout sessions with their buyer, keys and
 * standing (core/operator/orders.ts). Part of the back office's stores (store-ports.ts), kept apart for its
 * length.
 *
 * @module
 */
import type { PaymentFlag, Purchase } from './gateway-port.ts';
import type { OrderOverride, OrderStanding } from './order-state.ts';
import type { CheckoutSession, KeyWindows, LicenseKeys, SavedLicenses } from './port-types.ts';
import type { OrderFilter, PaidPeriod } from './store-queries.ts';

/** A checkout session as the back office sees it: the buyer, the payment, the keys and their standing. */
export interface Order {
  session: CheckoutSession;
  /** What the provider said of the buyer and the payment at fulfilment (all null before it). */
  purchase: Purchase;
  /** When this server fulfilled it (ms since the epoch), or null: not yet, or before orders were kept. */
  paidAt: number | null;
  keys: LicenseKeys | null;
  /** The update window each key was sold with (LIFETIME_KEYS when it has no keys, or for keys issued before windows were kept). */
  windows: KeyWindows;
  standing: OrderStanding;
}

/** Paid orders of one day, product and currency, and what they paid together (null: amounts unknown). */
export interface OrderCount {
  day: number;
  product: string;
  currency: string | null;
  count: number;
  /** The sum of the amounts as a decimal ("113.00"), or null when none is known. */
  revenue: string | null;
  /** Of those orders, the ones refunded in full. */
  refunded: number;
  /** Of those orders, the ones disputed (won, open or lost). */
  disputed: number;
  /**
   * What the orders kept: the sum of the amounts of those a refund or a dispute not won does not revoke
   * (core/ports/order-state.ts providerRevokes), in the revenue's decimals ("0.00" when all were); null when
   * no amount is known.
   */
  netRevenue: string | null;
}

/** A refund or dispute kept until its payment is known (OrderStore.keepPaymentEvent); dispute '' when none. */
export interface KeptPaymentEvent {
  flag: PaymentFlag;
  dispute: string;
}

/** What is read of the orders. */
export interface OrderReads {
  /** One order (any stored session), or null. */
  get(sessionId: string): Promise<Order | null>;
  /**
   * Paid orders, newest first (by fulfilment, else creation, time; of equal times, the higher session id
   * first), at most `limit`; with `session`, that one session whatever its state.
   */
  find(filter: OrderFilter): Promise<Order[]>;
  /**
   * Paid orders of a period, oldest first by fulfilment time, else creation time (orders kept before
   * fulfilment times were: migration 13), then by session id.
   */
  inPeriod(period: PaidPeriod): Promise<Order[]>;
  /**
   * Paid orders by the UTC day this server fulfilled them, product and currency, of the days from `fromDay`
   * to `toDay`, in a fixed order: by day, then product, then currency with the unknown currency first.
   */
  countByDay(fromDay: number, toDay: number): Promise<OrderCount[]>;
  /**
   * The order that holds a license key (its standard or its plus key, as issued: exactly equal), or null.
   * POST /api/v1/licenses/validate reads a key's standing by it; nothing about the key is stored for it.
   */
  ofLicenseKey(key: string): Promise<Order | null>;
  /** The session paid by a provider payment, or null. */
  sessionOfPayment(paymentRef: string): Promise<string | null>;
}

/**
 * The orders' writes made outside a change, on the payment path: what the provider says of a purchase as
 * fulfilment learns it, and the refunds and disputes that come before their payment is known.
 */
export interface PaymentRecords {
  /**
   * Keeps what the provider says of a paid session: fills what is not known yet (the first word wins),
   * and the fulfilment time once. No-op for an unknown session.
   */
  recordPurchase(sessionId: string, purchase: Purchase, at: number): Promise<void>;
  /**
   * Keeps a refund or dispute of a payment no order has yet (it came before the payment was known here),
   * until `takePaymentEvents` hands it to the order that payment pays for. Idempotent.
   */
  keepPaymentEvent(paymentRef: string, event: KeptPaymentEvent, at: number): Promise<void>;
  /** The kept events of a payment, deleted as they are handed over (each to one caller). */
  takePaymentEvents(paymentRef: string): Promise<KeptPaymentEvent[]>;
}

/**
 * Where the orders are kept: columns of the checkout sessions (every storage has one), whole as a change
 * has it. A change with an event, an audit entry or a mail (a flag, an override, an upgrade) runs in a
 * unit of work (change.ts).
 */
export interface OrderStore extends OrderReads, PaymentRecords {
  /**
   * Applies a provider event to an order's standing atomically (core/ports/order-state.ts withPaymentFlag);
   * the standing before and the order after, or null for an unknown session.
   */
  flag(sessionId: string, flag: PaymentFlag, dispute?: string): Promise<{ before: OrderStanding; order: Order } | null>;
  /**
   * Stores the operator's revoke or reinstate; the standing before (read under the order's lock, so that
   * of two racing overrides only one sees a change) and the order after, or null for an unknown session.
   */
  override(sessionId: string, override: OrderOverride, reason: string | null, at: number): Promise<{ before: OrderStanding; order: Order } | null>;
  /**
   * Adds a Plus key to a session's stored keys unless it has one (first write wins), with the update window
   * it is sold with (`windowDays`, days or null for lifetime: lifetime when left out), stored only by the
   * call that stores the key; the keys after, or null when the session has no keys stored.
   */
  addPlusKey(sessionId: string, key: string, windowDays?: number | null): Promise<SavedLicenses | null>;
}
