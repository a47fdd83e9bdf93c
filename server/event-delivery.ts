/**
 * Sends outbound events in the background: the delivery worker (core/webhooks/worker.ts) claims what is
 * due once a second, one claim at a time, while earlier attempts run on. Stopping waits for the attempts
 * under way, so no attempt is cut in half. A tick that cannot read the outbox is logged as
 * background-loop.ts says.
 *
 * @module
 */
import type { Clock, Logger, Storage } from '../core/ports/ports.ts';
import { createDeliveryWorker } from '../core/webhooks/worker.ts';
import { STRICT_WEBHOOK_ADDRESSES, type WebhookAddressPolicy } from '../core/webhooks/address.ts';
import { startBackgroundLoop } from './background-loop.ts';
import { guardedSender } from './webhook-addresses.ts';

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
  // Only the claim waits for the one before it: attempts run on, each endpoint within its own slots.
  const loop = startBackgroundLoop(() => worker.start(), 'event delivery could not read the outbox', clock, logger, intervalMs);
  return {
    async stop() {
      await loop.stop();
      await worker.settled();
    },
  };
}
