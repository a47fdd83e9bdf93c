/**
 * POST /api/v1/licenses/resend (an addition to the spec): mails the valid keys on file for an address to
 * that address, and answers 202 with the same body whatever the address, so that nobody learns who
 * bought. Limited per client (5 an hour: 429 too_many_resends) and per address (3 mails a day: further
 * requests are answered alike and mail nothing, so the limit tells nothing either).
 *
 * @module
 */
import { clientKeyOf } from '../clients/client-ip.ts';
import type { AppContext, Operation } from '../context.ts';
import { readJsonObject } from '../http/body.ts';
import { ApiError } from '../http/errors.ts';
import { encodeJson, JSON_TYPE } from '../http/http.ts';
import { parseOrThrow } from '../http/validate.ts';
import { resendMail } from '../mail/messages.ts';
import { LicenseResendRequestSchema, RESEND_ACCEPTED } from '../schemas/licenses-resend.ts';

/** Requests one client may make per hour. */
export const RESENDS_PER_CLIENT_PER_HOUR = 5;
/** Mails one address may get per day from resend requests. */
export const RESENDS_PER_ADDRESS_PER_DAY = 3;
/** The most orders of one address a resend covers. */
const MAX_ORDERS = 50;

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** POST licenses/resend. */
export function resendLicenses(context: AppContext): Operation {
  const accepted = encodeJson(RESEND_ACCEPTED);
  const answer = () => ({ status: 202, headers: { 'content-type': JSON_TYPE }, body: accepted });
  return async (request) => {
    const body = readJsonObject(request, context.bodyLimit, true);
    const { email } = parseOrThrow(LicenseResendRequestSchema, body);
    const byClient = await context.storage.rateLimits.hit(`resend-client:${clientKeyOf(request)}`, HOUR_MS, RESENDS_PER_CLIENT_PER_HOUR);
    if (byClient.count > RESENDS_PER_CLIENT_PER_HOUR) {
      const seconds = Math.max(1, Math.ceil(byClient.resetMs / 1000));
      throw new ApiError('too_many_resends', `Too many resend requests: at most ${RESENDS_PER_CLIENT_PER_HOUR} per hour per client.`, undefined, { 'retry-after': String(seconds) });
    }
    const address = email.toLowerCase();
    const byAddress = await context.storage.rateLimits.hit(`resend-email:${address}`, DAY_MS, RESENDS_PER_ADDRESS_PER_DAY);
    if (byAddress.count > RESENDS_PER_ADDRESS_PER_DAY) return answer();
    const orders = await context.storage.orders.find({ email: address, limit: MAX_ORDERS });
    // Each request is its own cause: one request mails once, a later one again.
    const mail = resendMail(context.mail, email, orders, `resend:${crypto.randomUUID()}`);
    if (mail) await context.storage.mail.enqueue(mail, context.clock.now());
    return answer();
  };
}
