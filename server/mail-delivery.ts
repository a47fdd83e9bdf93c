/**
 * Sends the mail outbox in the background, once a second: first the app's resend step (the resend
 * requests recorded since become mails in the outbox, with or without a sender), then the mail worker
 * (core/mail/worker.ts) takes what is due, when a sender is configured. Stopping waits for the tick under
 * way; a failed tick is logged as background-loop.ts says.
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

export interface MailDeliveryOptions {
  storage: Storage;
  /** The SMTP sender; null when mail is off (the resend step still runs: its mails wait in the outbox). */
  sender: MailSender | null;
  /** The sender address. */
  from: string;
  /** The app's resend step (`App.processResendRequests`). */
  resendStep: () => Promise<unknown>;
  clock: Clock;
  logger: Logger;
  /** 1 s by default. */
  intervalMs?: number;
}

/** The domain of a sender address, for Message-IDs. */
export function senderDomain(from: string): string {
  const address = /<([^>]+)>\s*$/.exec(from)?.[1] ?? from;
  return address.slice(address.lastIndexOf('@') + 1) || 'localhost';
}

/** Starts the resend step and, with a sender, the sending of the storage's due mails every `intervalMs`. */
export function startMailDelivery(options: MailDeliveryOptions): MailDelivery {
  const { storage, sender, from, clock, logger } = options;
  const worker = sender && createMailWorker({ mail: storage.mail, sender, from, messageIdHost: senderDomain(from), clock, logger });
  const tick = async () => {
    await options.resendStep();
    await worker?.tick();
  };
  const loop = startBackgroundLoop(tick, 'mail delivery could not read the mail outbox', clock, logger, options.intervalMs ?? 1000);
  return {
    async stop() {
      await loop.stop();
      await sender?.close?.();
    },
  };
}
