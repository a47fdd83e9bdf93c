/**
 * The mail worker: takes due messages from the mail outbox, hands each to the sender, and records the
 * outcome. A failed attempt is tried again on the schedule below, for about 27 hours, then the message
 * is marked failed; a refusal for good (an SMTP 5xx: a mailbox that does not exist) is not retried.
 *
 * Deadlines: a few messages are sent at once, so a relay slow to answer one holds only that one; each
 * attempt is aborted at its deadline (60 s by default) and counts as failed (retried on the schedule);
 * and a claim leases a message for twice the deadline, so no other instance takes it while an attempt can
 * still finish (the deadline ends the attempt first; the lease is not renewed).
 *
 * @module
 */
import { createAttemptWorker } from '../attempts.ts';
import type { Clock, Logger } from '../ports/ports.ts';
import type { MailSender, MailWork, StoredMail } from '../ports/mail.ts';

/** The wait after each failed attempt: 1 min, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (8 attempts, ~27.6 h). */
export const MAIL_RETRY_SCHEDULE_MS: readonly number[] = [60_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

/** The most one attempt may take, from the connection to the relay's last answer, by default. */
export const MAIL_DEADLINE_MS = 60_000;

export interface MailWorkerOptions {
  mail: MailWork;
  sender: MailSender;
  /** The sender address, e.g. `Converter <licenses@example.com>`. */
  from: string;
  /** The host part of each Message-ID (`<cause@host>`). */
  messageIdHost: string;
  clock: Clock;
  logger: Logger;
  /** Messages sent at once (4 by default): a relay that is slow to answer one holds only its slot. */
  concurrency?: number;
  /**
   * How long one attempt may take (MAIL_DEADLINE_MS by default): it is then aborted and retried on the
   * schedule. A claim leases a message for twice this, so the attempt ends before the lease does.
   */
  deadlineMs?: number;
  /** The signal that ends an attempt after `ms`: `AbortSignal.timeout` by default; tests pass one their clock fires. */
  abortAfter?: (ms: number) => AbortSignal;
  /** A message's one-click unsubscribe address, sent as List-Unsubscribe (App.listUnsubscribe); none by default. */
  listUnsubscribe?: (mail: StoredMail) => string | undefined;
}

export interface MailWorker {
  /** Sends what is due now, within the free slots; resolves with the number of attempts made, once they are done. */
  tick(): Promise<number>;
  /**
   * Starts sending what is due now, within the free slots, and resolves with the number started without
   * waiting for them: the mail loop calls it every second, so a slow relay answer delays only its message.
   */
  start(): Promise<number>;
  /** Resolves when every attempt under way is done. */
  settled(): Promise<void>;
}

/** A Message-ID from a cause: the same on every attempt, made of characters a Message-ID may hold. */
export function messageIdOf(cause: string, host: string): string {
  return `<${cause.replaceAll(/[^A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]/g, '.')}@${host}>`;
}

const isPermanent = (error: unknown) => typeof error === 'object' && error !== null && (error as { permanent?: unknown }).permanent === true;

/** Settles with `work`, or rejects when `signal` aborts first (a sender that ignores the signal still frees its slot). */
function within<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const aborted = () => reject(signal.reason);
    if (signal.aborted) return aborted();
    signal.addEventListener('abort', aborted, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', aborted));
  });
}

export function createMailWorker(options: MailWorkerOptions): MailWorker {
  const { mail, sender, clock, logger } = options;
  const concurrency = options.concurrency ?? 4;
  const deadlineMs = options.deadlineMs ?? MAIL_DEADLINE_MS;
  const abortAfter = options.abortAfter ?? ((ms: number) => AbortSignal.timeout(ms));

  const attempt = async (message: StoredMail): Promise<void> => {
    const at = clock.now();
    let error: string | null = null;
    let permanent = false;
    const signal = abortAfter(deadlineMs);
    try {
      const { to, subject, text, html } = message;
      const unsubscribe = options.listUnsubscribe?.(message);
      const outgoing = {
        from: options.from,
        to,
        subject,
        text,
        html,
        messageId: messageIdOf(message.cause, options.messageIdHost),
        ...(unsubscribe ? { listUnsubscribe: unsubscribe } : {}),
      };
      await within(sender.send(outgoing, signal), signal);
    } catch (failure) {
      error = signal.aborted
        ? `not sent within the deadline of ${deadlineMs / 1000} s (aborted)`
        : failure instanceof Error
        ? failure.message
        : String(failure);
      permanent = !signal.aborted && isPermanent(failure);
    }
    const sent = error === null;
    const wait = permanent ? undefined : MAIL_RETRY_SCHEDULE_MS[message.attempts];
    // From the attempt's end: an attempt cut at its deadline waits its full turn too.
    const nextAttemptAt = sent || wait === undefined ? null : clock.now() + wait;
    await mail.recordAttempt(message.id, { at, error, sent, nextAttemptAt });
    const fields = { mail: message.id, kind: message.kind, session: message.session, attempt: message.attempts + 1, error };
    if (sent) logger.info('mail sent', fields);
    else if (nextAttemptAt === null) logger.error('mail given up: resend it from the order page or the CLI', fields);
    else logger.warn('mail not sent, will retry', { ...fields, nextAttemptAt: new Date(nextAttemptAt).toISOString() });
  };

  return createAttemptWorker({
    slots: concurrency,
    // Leased for twice the deadline: each attempt starts now and is over by the deadline.
    claim: (free) => mail.claimDue(clock.now(), 2 * deadlineMs, free),
    attempt,
    unrecorded: (message, error) => logger.error('mail attempt could not be recorded', { mail: message.id, error: String(error) }),
  });
}
