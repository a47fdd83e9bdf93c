/**
 * The delivery worker: takes due deliveries from the outbox, sends each signed (sign.ts), and records the
 * outcome. A failed attempt is tried again on the schedule below, for about 27 hours, then the delivery
 * is marked failed (the operator can replay it). At least once: a receiver deduplicates by webhook-id.
 *
 * @module
 */
import { createAttemptWorker } from '../attempts.ts';
import { describeFetchFailure } from '../http/fetch-failure.ts';
import type { Clock, Logger } from '../ports/ports.ts';
import type { DeliveryWork, DueDelivery } from '../ports/events.ts';
import { signatureHeaders } from './sign.ts';
import { slackText } from './slack.ts';
import { endpointRefusal, STRICT_WEBHOOK_ADDRESSES, type WebhookAddressPolicy } from './address.ts';

/** The wait after each failed attempt: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (8 attempts, ~27.6 h). */
export const RETRY_SCHEDULE_MS: readonly number[] = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

export interface DeliveryWorkerOptions {
  outbox: DeliveryWork;
  clock: Clock;
  logger: Logger;
  /** Sends one request; the runtime's fetch in production. */
  fetch: (
    url: string,
    init: { method: 'POST'; headers: Record<string, string>; body: string; signal: AbortSignal; redirect: 'manual' },
  ) => Promise<{ status: number }>;
  /** Where deliveries may go (address.ts), checked before each attempt; every non-public address refused by default. */
  addresses?: WebhookAddressPolicy;
  /** Deliveries under way at once, over every endpoint (20 by default). */
  batch?: number;
  /** Deliveries under way at once to one endpoint (4 by default): a slow receiver holds only these. */
  perEndpoint?: number;
  /** How long one attempt may take (10 s by default); the lease is twice that, so no instance sends it meanwhile. */
  timeoutMs?: number;
}

export interface DeliveryWorker {
  /** Sends what is due now; resolves with the number of attempts made, once they are done. */
  tick(): Promise<number>;
  /**
   * Starts sending what is due now, within the free slots of each endpoint, and resolves with the number
   * started without waiting for them: the background loop calls it every second, so a receiver that
   * hangs delays only its own deliveries (one tick waited for its slowest receiver: 53 of 200 events
   * delivered in 60 s).
   */
  start(): Promise<number>;
  /** Resolves when every attempt under way is done. */
  settled(): Promise<void>;
}

/** What an endpoint receives: the stored event, or for a Slack endpoint `{"text": ...}` about it. */
function bodyFor(delivery: DueDelivery): string {
  return delivery.format === 'slack' ? JSON.stringify({ text: slackText(delivery.body) }) : delivery.body;
}

export function createDeliveryWorker(options: DeliveryWorkerOptions): DeliveryWorker {
  const { outbox, clock, logger } = options;
  const batch = options.batch ?? 20;
  const perEndpoint = options.perEndpoint ?? 4;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const addresses = options.addresses ?? STRICT_WEBHOOK_ADDRESSES;
  const inFlight = new Map<number, number>();

  const attempt = async (delivery: DueDelivery): Promise<void> => {
    const at = clock.now();
    const body = bodyFor(delivery);
    let status: number | null = null;
    let error: string | null = null;
    try {
      // Again at each attempt: the name may resolve elsewhere since the endpoint was registered.
      const refusal = await endpointRefusal(addresses, delivery.url);
      if (refusal !== null) throw new Error(`refused: ${refusal}`);
      const headers = await signatureHeaders(delivery.secret, delivery.eventId, Math.floor(at / 1000), body, delivery.previousSecret);
      const response = await options.fetch(delivery.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'converter-site-api webhooks', ...headers },
        body,
        signal: AbortSignal.timeout(timeoutMs),
        // A redirect is an answer of its own (a failed attempt), never followed to where it points.
        redirect: 'manual',
      });
      status = response.status;
      if (status < 200 || status > 299) error = `the endpoint answered ${status}`;
    } catch (failure) {
      error = describeFetchFailure(failure, timeoutMs);
    }
    const delivered = error === null;
    const wait = RETRY_SCHEDULE_MS[delivery.attempts];
    const nextAttemptAt = delivered || wait === undefined ? null : at + wait;
    await outbox.recordAttempt(delivery.id, { at, status, error, delivered, nextAttemptAt });
    const fields = { delivery: delivery.id, eventId: delivery.eventId, type: delivery.type, url: delivery.url, attempt: delivery.attempts + 1, status, error };
    if (delivered) logger.info('event delivered', fields);
    else if (nextAttemptAt === null) logger.error('event delivery given up: replay it through the operator API', fields);
    else logger.warn('event delivery failed, will retry', { ...fields, nextAttemptAt: new Date(nextAttemptAt).toISOString() });
  };

  return createAttemptWorker({
    slots: batch,
    /** What is due, within the free slots overall and each endpoint's free slots (`inFlight`). */
    claim: (free) => outbox.claimDue(clock.now(), 2 * timeoutMs, free, { perEndpoint, inFlight }),
    attempt,
    unrecorded: (delivery, error) => logger.error('event delivery could not be recorded', { delivery: delivery.id, error: String(error) }),
    started: (delivery) => inFlight.set(delivery.endpointId, (inFlight.get(delivery.endpointId) ?? 0) + 1),
    ended: (delivery) => {
      const left = (inFlight.get(delivery.endpointId) ?? 1) - 1;
      if (left === 0) inFlight.delete(delivery.endpointId);
      else inFlight.set(delivery.endpointId, left);
    },
  });
}
