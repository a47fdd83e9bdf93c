/**
 * Sends the mail outbox in the background: the mail worker (core/mail/worker.ts) takes what is due once
 * a second, one tick at a time. Stopping waits for the tick under way; a failed tick is logged as
 * background-loop.ts says.
 *
 * @module
 */
import type { Clock, Logger, Storage } from '../core/ports/ports.ts';
import type { MailSender } from '../core/ports/mail.ts';
import { createMailWorker } from '../core/mail/worker.ts';
import { startBackgroundLoop } from './background-loop.ts';

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
  const loop = startBackgroundLoop(() => worker.tick(), 'mail delivery could not read the mail outbox', clock, logger, intervalMs);
  return {
    async stop() {
      await loop.stop();
      await sender.close?.();
    },
  };
}
