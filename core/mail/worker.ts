/**
 * The mail worker: takes due messages from the mail outbox, hands each to the sender, and records the
 * outcome. A failed attempt is tried again on the schedule below, for about 27 hours, then the message
 * is marked failed; a refusal for good (an SMTP 5xx: a mailbox that does not exist) is not retried.
 *
 * @module
 */
import type { Clock, Logger } from '../ports/ports.ts';
import type { MailSender, MailStore, StoredMail } from '../ports/mail.ts';

/** The wait after each failed attempt: 1 min, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (8 attempts, ~27.6 h). */
export const MAIL_RETRY_SCHEDULE_MS: readonly number[] = [60_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

export interface MailWorkerOptions {
  mail: MailStore;
  sender: MailSender;
  /** The sender address, e.g. `Converter <licenses@example.com>`. */
  from: string;
  /** The host part of each Message-ID (`<cause@host>`). */
  messageIdHost: string;
  clock: Clock;
  logger: Logger;
  /** Messages taken at once (10 by default). */
  batch?: number;
  /** How long an attempt may take before another instance may try (2 min by default). */
  leaseMs?: number;
}

export interface MailWorker {
  /** Sends what is due now, one message after another; resolves with the number of attempts made. */
  tick(): Promise<number>;
}

/** A Message-ID from a cause: the same on every attempt, made of characters a Message-ID may hold. */
export function messageIdOf(cause: string, host: string): string {
  return `<${cause.replaceAll(/[^A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]/g, '.')}@${host}>`;
}

const isPermanent = (error: unknown) => typeof error === 'object' && error !== null && (error as { permanent?: unknown }).permanent === true;

export function createMailWorker(options: MailWorkerOptions): MailWorker {
  const { mail, sender, clock, logger } = options;
  const batch = options.batch ?? 10;
  const leaseMs = options.leaseMs ?? 120_000;

  const attempt = async (message: StoredMail): Promise<void> => {
    const at = clock.now();
    let error: string | null = null;
    let permanent = false;
    try {
      const { to, subject, text, html } = message;
      await sender.send({ from: options.from, to, subject, text, html, messageId: messageIdOf(message.cause, options.messageIdHost) });
    } catch (failure) {
      error = failure instanceof Error ? failure.message : String(failure);
      permanent = isPermanent(failure);
    }
    const sent = error === null;
    const wait = permanent ? undefined : MAIL_RETRY_SCHEDULE_MS[message.attempts];
    const nextAttemptAt = sent || wait === undefined ? null : at + wait;
    await mail.recordAttempt(message.id, { at, error, sent, nextAttemptAt });
    const fields = { mail: message.id, kind: message.kind, session: message.session, attempt: message.attempts + 1, error };
    if (sent) logger.info('mail sent', fields);
    else if (nextAttemptAt === null) logger.error('mail given up: resend it from the order page or the CLI', fields);
    else logger.warn('mail not sent, will retry', { ...fields, nextAttemptAt: new Date(nextAttemptAt).toISOString() });
  };

  return {
    async tick() {
      const due = await mail.claimDue(clock.now(), leaseMs, batch);
      for (const message of due) await attempt(message);
      return due.length;
    },
  };
}
