/**
 * Outbound events (Standard Webhooks): the event types, the endpoints an operator registers, and the
 * durable outbox every storage keeps. An event is written with the change it reports (same statement or
 * transaction), one delivery per subscribed endpoint; the delivery worker (worker.ts) sends them.
 *
 * @module
 */

export const EVENT_TYPES = [
  'feedback.received',
  'feedback.linked',
  'order.paid',
  'license.revoked',
  'license.reinstated',
  'release.published',
  'release.rolled_out',
  'release.pulled',
  'release.restored',
  'release.promoted',
  'release.halted',
  'release.resumed',
  'roadmap.changed',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/**
 * The event an operator sends to one endpoint to try it (POST /webhooks/{id}/test): delivered and signed
 * like the others, in the delivery log, but never subscribed to and never sent by a change.
 */
export const TEST_EVENT_TYPE = 'webhook.test';

/** Every type a delivery may carry: the events, and the test event. */
export const DELIVERED_TYPES = [...EVENT_TYPES, TEST_EVENT_TYPE] as const;

export type DeliveredType = (typeof DELIVERED_TYPES)[number];

/** An event before it is written: its type and its `data`. */
export interface EventDraft {
  type: EventType;
  data: Record<string, unknown>;
}

/** How an endpoint wants its body: Standard Webhooks JSON, or Slack's incoming-webhook `{text}`. */
export type EndpointFormat = 'standard' | 'slack';

export interface WebhookEndpoint {
  id: number;
  url: string;
  /** The event types it gets; empty for every type. */
  events: EventType[];
  format: EndpointFormat;
  enabled: boolean;
  createdAt: number;
}

export interface NewEndpoint {
  url: string;
  /** `whsec_` and base64 of the signing key (Standard Webhooks). */
  secret: string;
  events: EventType[];
  format: EndpointFormat;
  createdAt: number;
}

export type DeliveryState = 'pending' | 'delivered' | 'failed';

/** One event's delivery to one endpoint, as the operator sees it. */
export interface Delivery {
  id: number;
  /**
   * The webhook-id header: `msg_` and 32 lower-case hex digits (a random UUID's, without its dashes), one
   * per event, the same on every attempt and replay.
   */
  eventId: string;
  type: DeliveredType;
  endpointId: number;
  url: string;
  state: DeliveryState;
  attempts: number;
  createdAt: number;
  nextAttemptAt: number | null;
  lastAttemptAt: number | null;
  lastStatus: number | null;
  lastError: string | null;
  deliveredAt: number | null;
}

/** A delivery the worker claimed: what it sends and where. */
export interface DueDelivery {
  id: number;
  endpointId: number;
  /** The delivery's `eventId` (`msg_` and 32 lower-case hex digits). */
  eventId: string;
  type: DeliveredType;
  /** The event as JSON text, exactly as stored: every attempt sends and signs the same bytes. */
  body: string;
  url: string;
  secret: string;
  /** The secret a rotation replaced, while its grace period lasts (the attempt is signed with both); else null. */
  previousSecret: string | null;
  format: EndpointFormat;
  attempts: number;
}

/** What deleting an endpoint did: the endpoint as it was, and how many of its deliveries went with it. */
export interface DeletedEndpoint {
  endpoint: WebhookEndpoint;
  /** Its deliveries, deleted with it (pending ones included: they are never sent). */
  dropped: number;
}

/** What replaying the failed deliveries did: how many are pending again, how many failed ones are left (past the cap). */
export interface FailedReplay {
  replayed: number;
  remaining: number;
}

/** What one attempt came to. */
export interface AttemptOutcome {
  at: number;
  status: number | null;
  error: string | null;
  delivered: boolean;
  /** When to try again, or null: delivered, or given up (failed). */
  nextAttemptAt: number | null;
}

export interface DeliveryFilter {
  state?: DeliveryState | undefined;
  /** Deliveries with a smaller id only: the `next` of the page before. */
  before?: number | undefined;
  limit: number;
}

/**
 * How many deliveries one endpoint may have under way: `perEndpoint` in all, less those this instance
 * already has in flight (`inFlight`, by endpoint id). A claim takes no more, so a slow receiver holds
 * only its own slots, never the others'.
 */
export interface EndpointShare {
  perEndpoint: number;
  inFlight: ReadonlyMap<number, number>;
}

/** What the back office reads of the outbox: the endpoints and the deliveries. */
export interface OutboxReads {
  /** Every endpoint, in the order they were added (id order). */
  listEndpoints(): Promise<WebhookEndpoint[]>;
  /** Deliveries newest first (highest id first). */
  listDeliveries(filter: DeliveryFilter): Promise<Delivery[]>;
}

/** The outbox's writes made outside a change: the webhook worker's bookkeeping of its deliveries. */
export interface DeliveryWork {
  /**
   * Takes up to `limit` pending deliveries due at `now` to enabled endpoints (within `share` per endpoint)
   * and leases them until `now + leaseMs`, so that another instance does not send them meanwhile
   * (PostgreSQL: skip locked). A disabled endpoint's deliveries wait, retries and replays included. A
   * claimed delivery is not due again before the lease ends; `attempts` counts the attempts recorded before.
   */
  claimDue(now: number, leaseMs: number, limit: number, share?: EndpointShare): Promise<DueDelivery[]>;
  /**
   * Records one attempt: `attempts` goes up by one; delivered, the delivery is `delivered` at `at` with no
   * next attempt; else `pending` again, due at `nextAttemptAt`, or `failed` when that is null. An attempt of
   * a delivery deleted meanwhile (with its endpoint) is recorded nowhere.
   */
  recordAttempt(id: number, outcome: AttemptOutcome): Promise<void>;
}

/**
 * The outbox and its endpoints (every storage has one), whole as a change has it: an operator's change of
 * them is written in a unit of work (change.ts) with its audit entry.
 */
export interface OutboxStore extends OutboxReads, DeliveryWork {
  /** Adds an endpoint, enabled, with an id above every endpoint's before (a deleted one's too). */
  addEndpoint(endpoint: NewEndpoint): Promise<WebhookEndpoint>;
  /** Changes some of url, events, enabled; null when there is no such endpoint. */
  updateEndpoint(
    id: number,
    change: { url?: string | undefined; events?: EventType[] | undefined; enabled?: boolean | undefined },
  ): Promise<WebhookEndpoint | null>;
  /**
   * Writes an event, with a new event id, and one pending delivery, due at `at`, per enabled endpoint
   * that wants its type (an endpoint with no `events` wants every type); nothing when none does.
   */
  enqueue(event: EventDraft, at: number): Promise<void>;
  /**
   * Makes a delivery pending again, due at `at`, from its first attempt (attempts 0), with the same event
   * id; the delivery afterwards, or null when there is none.
   */
  replay(id: number, at: number): Promise<Delivery | null>;
  /**
   * Makes up to `limit` failed deliveries pending again (oldest first), due at `at`, from their first
   * attempt; only those to `endpointId` when given. Nothing else changes.
   */
  replayFailed(at: number, limit: number, endpointId: number | null): Promise<FailedReplay>;
  /**
   * Writes a test event (TEST_EVENT_TYPE) and one delivery of it to that endpoint only, whatever the types
   * it asked for, due at `at`; the delivery, or null when there is no such endpoint.
   */
  sendTest(endpointId: number, data: Record<string, unknown>, at: number): Promise<Delivery | null>;
  /**
   * Deletes an endpoint and its deliveries (pending ones too: they are never sent); null when there is
   * none (a second delete of the same id answers null).
   */
  deleteEndpoint(id: number): Promise<DeletedEndpoint | null>;
  /**
   * Gives an endpoint a new secret. The old one keeps signing beside it until `previousUntil` (ms), or
   * stops at once when null; null when there is no such endpoint.
   */
  rotateSecret(id: number, secret: string, previousUntil: number | null): Promise<WebhookEndpoint | null>;
}

/** An event's JSON body, as Standard Webhooks suggests: type, timestamp and data. */
export function eventBody(event: { type: DeliveredType; data: Record<string, unknown> }, at: number): string {
  return JSON.stringify({ type: event.type, timestamp: new Date(at).toISOString(), data: event.data });
}
