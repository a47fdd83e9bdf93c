/**
 * Sends the mail outbox in the background, once a second: first the app's resend step (the resend
 * requests recorded since become mails in the outbox, with or without a sender), every minute the
 * shipped-request step (requesters told their request shipped), then, when a sender is
 * configured, the mail worker (core/mail/worker.ts) starts sending what is due into its free slots while
 * earlier attempts run on, each within its deadline. Stopping waits for the tick and the attempts under
 * way (at most the deadline); a failed tick is logged as background-loop.ts says.
 *
 * @module
 */
import type { Clock, Logger, Storage } from '../core/ports/ports.ts';
import type { MailSender } from '../core/ports/mail.ts';
import { createMailWorker, type MailWorkerOptions } from '../core/mail/worker.ts';
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
  /** The app's shipped-request step (`App.processShippedRequests`), run at most every `shippedEveryMs`. */
  shippedStep?: () => Promise<unknown>;
  /** 60 s by default: the step reads every linked request, so not every second. */
  shippedEveryMs?: number;
  /** A message's one-click unsubscribe address (`App.listUnsubscribe`). */
  listUnsubscribe?: (mail: { kind: string; to: string }) => string | undefined;
  clock: Clock;
  logger: Logger;
  /** 1 s by default. */
  intervalMs?: number;
  /** The worker's slots and deadline (4 at once, 60 s by default; see core/mail/worker.ts). */
  limits?: Pick<MailWorkerOptions, 'concurrency' | 'deadlineMs' | 'abortAfter'>;
}

/** The domain of a sender address, for Message-IDs. */
export function senderDomain(from: string): string {
  const address = /<([^>]+)>\s*$/.exec(from)?.[1] ?? from;
  return address.slice(address.lastIndexOf('@') + 1) || 'localhost';
}

/** Starts the resend step and, with a sender, the sending of the storage's due mails every `intervalMs`. */
export function startMailDelivery(options: MailDeliveryOptions): MailDelivery {
  const { storage, sender, from, clock, logger } = options;
  const listUnsubscribe = options.listUnsubscribe;
  const worker = sender &&
    createMailWorker({
      mail: storage.mail,
      sender,
      from,
      messageIdHost: senderDomain(from),
      clock,
      logger,
      ...options.limits,
      ...(listUnsubscribe ? { listUnsubscribe } : {}),
    });
  const shippedEveryMs = options.shippedEveryMs ?? 60_000;
  let shippedAt = -Infinity;
  const tick = async () => {
    await options.resendStep();
    if (options.shippedStep && clock.now() - shippedAt >= shippedEveryMs) {
      shippedAt = clock.now();
      await options.shippedStep();
    }
    // Only the claim waits: a message whose relay is slow to answer holds its own slot, not the loop.
    await worker?.start();
  };
  const loop = startBackgroundLoop(tick, 'mail delivery could not read the mail outbox', clock, logger, options.intervalMs ?? 1000);
  return {
    async stop() {
      await loop.stop();
      await worker?.settled();
      await sender?.close?.();
    },
  };
}
