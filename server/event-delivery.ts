/**
 * Sends outbound events in the background: the delivery worker (core/webhooks/worker.ts) claims what is
 * due once a second, one claim at a time, while earlier attempts run on. Stopping waits for the attempts
 * under way, so no attempt is cut in half. While the outbox
 * cannot be read (a database outage, PGlite's disk reserve) the failure is logged once a minute, with how
 * many ticks failed, not once a second.
 *
 * @module
 */
import type { Clock, Logger, Storage } from '../core/ports/ports.ts';
import { createDeliveryWorker } from '../core/webhooks/worker.ts';
import { STRICT_WEBHOOK_ADDRESSES, type WebhookAddressPolicy } from '../core/webhooks/address.ts';
import { guardedSender } from './webhook-addresses.ts';

/** The least time between two log lines of failed ticks. */
const FAILURE_LOG_INTERVAL_MS = 60_000;

export interface EventDelivery {
  stop(): Promise<void>;
}

/** Starts sending the storage's due deliveries every `intervalMs` (1 s by default). */
export function startEventDelivery(
  storage: Storage,
  clock: Clock,
  logger: Logger,
  intervalMs = 1000,
  addresses: WebhookAddressPolicy = STRICT_WEBHOOK_ADDRESSES,
): EventDelivery {
  const worker = createDeliveryWorker({ outbox: storage.outbox, clock, logger, addresses, fetch: guardedSender(addresses) });
  let running: Promise<void> = Promise.resolve();
  let busy = false;
  const failures = { count: 0, loggedAt: -Infinity };
  const failed = (error: unknown): void => {
    failures.count++;
    if (clock.now() - failures.loggedAt < FAILURE_LOG_INTERVAL_MS) return;
    failures.loggedAt = clock.now();
    logger.warn('event delivery could not read the outbox', { error: error instanceof Error ? error.message : String(error), failedTicks: failures.count });
    failures.count = 0;
  };
  // Only the claim waits for the one before it: attempts run on, each endpoint within its own slots.
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    running = worker
      .start()
      .then(() => undefined, failed)
      .finally(() => (busy = false));
  }, intervalMs);
  timer.unref?.();
  return {
    async stop() {
      clearInterval(timer);
      await running;
      await worker.settled();
    },
  };
}
