/**
 * The background step of POST licenses/resend: the request only recorded the address (one write, the same
 * for every address, so its answer tells nobody who bought); this step takes the recorded requests, looks
 * up each address's orders and writes the mail of its valid keys, if any, completing the request in the
 * same unit. A request whose step dies is taken again once its lease ends; its cause keeps it to one mail.
 *
 * @module
 */
import type { Clock, Logger } from '../ports/ports.ts';
import type { ClaimedResendRequest, MailWork } from '../ports/mail.ts';
import type { OrderStore } from '../ports/order-store.ts';
import { type MailSettings, resendMail } from './messages.ts';

/** The most orders of one address a resend covers. */
const MAX_ORDERS = 50;
/** Claims after which a request that keeps failing is dropped (logged). */
const MAX_ATTEMPTS = 5;

export interface ResendStepOptions {
  mail: MailWork;
  orders: Pick<OrderStore, 'find'>;
  settings: MailSettings;
  clock: Clock;
  logger: Logger;
  /** Requests taken at once (50 by default). */
  batch?: number;
  /** How long a step may hold a request before another may take it (2 min by default). */
  leaseMs?: number;
}

/** Takes the recorded resend requests and writes their mails; resolves with the number of requests taken. */
export type ResendStep = () => Promise<number>;

export function createResendStep(options: ResendStepOptions): ResendStep {
  const { mail, orders, settings, clock, logger } = options;
  const batch = options.batch ?? 50;
  const leaseMs = options.leaseMs ?? 120_000;

  const complete = async (request: ClaimedResendRequest): Promise<void> => {
    if (request.attempts >= MAX_ATTEMPTS) {
      logger.error('resend request given up', { cause: request.cause, attempts: request.attempts });
      await mail.completeResendRequest(request.id, null, clock.now());
      return;
    }
    const found = await orders.find({ email: request.email, limit: MAX_ORDERS });
    await mail.completeResendRequest(request.id, resendMail(settings, request.email, found, request.cause), clock.now());
  };

  return async () => {
    const taken = await mail.claimResendRequests(clock.now(), leaseMs, batch);
    for (const request of taken) {
      // One failure leaves only its own request to a later claim.
      await complete(request).catch((error: unknown) =>
        logger.warn('resend request not completed, will retry', { cause: request.cause, error: error instanceof Error ? error.message : String(error) })
      );
    }
    return taken.length;
  };
}
