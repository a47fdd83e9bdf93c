/**
 * Sends the mail outbox in the background: the mail worker (core/mail/worker.ts) takes what is due once
 * a second, one tick at a time. Stopping waits for the tick under way. While the outbox cannot be read
 * the failure is logged once a minute, not once a second.
 *
 * @module
 */
import type { Clock, Logger, Storage } from '../core/ports/ports.ts';
import type { MailSender } from '../core/ports/mail.ts';
import { createMailWorker } from '../core/mail/worker.ts';

const FAILURE_LOG_INTERVAL_MS = 60_000;

export interface MailDelivery {
  stop(): Promise<void>;
}

/** The domain of a sender address, for Message-IDs. */
export function senderDomain(from: string): string {
  const address = /<([^>]+)>\s*$/.exec(from)?.[1] ?? from;
  return address.slice(address.lastIndexOf('@') + 1) || 'localhost';
}

/** Starts sending the storage's due mails every `intervalMs` (1 s by default) through `sender`. */
export function startMailDelivery(storage: Storage, sender: MailSender, from: string, clock: Clock, logger: Logger, intervalMs = 1000): MailDelivery {
  const worker = createMailWorker({ mail: storage.mail, sender, from, messageIdHost: senderDomain(from), clock, logger });
  let running: Promise<void> = Promise.resolve();
  let busy = false;
  let loggedAt = -Infinity;
  const failed = (error: unknown): void => {
    if (clock.now() - loggedAt < FAILURE_LOG_INTERVAL_MS) return;
    loggedAt = clock.now();
    logger.warn('mail delivery could not read the mail outbox', { error: error instanceof Error ? error.message : String(error) });
  };
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    running = worker
      .tick()
      .then(() => undefined, failed)
      .finally(() => (busy = false));
  }, intervalMs);
  timer.unref?.();
  return {
    async stop() {
      clearInterval(timer);
      await running;
      await sender.close?.();
    },
  };
}
