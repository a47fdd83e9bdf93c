/**
 * POST /api/v1/licenses/resend (an addition to the spec): mails the valid keys on file for an address to
 * that address, and answers 202 with the same body whatever the address, so that nobody learns who
 * bought. Limited per client (5 an hour: 429 too_many_resends) and per address (3 mails a day: further
 * requests are answered alike and mail nothing, so the limit tells nothing either).
 *
 * The answer never waits for the order lookup or the mail: the request path only records the request
 * (one write, the same for every address), and the resend step (core/mail/resend-requests.ts, run by the
 * server's mail loop) looks the address up and writes the mail. Known and unknown addresses so take the
 * same storage calls, in the same order, before the answer.
 *
 * @module
 */
import { clientKeyOf } from '../clients/client-ip.ts';
import type { AppContext, Operation } from '../context.ts';
import { readJsonObject } from '../http/body.ts';
import { ApiError } from '../http/errors.ts';
import { encodeJson, JSON_TYPE } from '../http/http.ts';
import { parseOrThrow } from '../http/validate.ts';
import { LicenseResendRequestSchema, RESEND_ACCEPTED } from '../schemas/licenses-resend.ts';

/** Requests one client may make per hour. */
export const RESENDS_PER_CLIENT_PER_HOUR = 5;
/** Mails one address may get per day from resend requests. */
export const RESENDS_PER_ADDRESS_PER_DAY = 3;

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
      throw new ApiError('too_many_resends', `Too many resend requests: at most ${RESENDS_PER_CLIENT_PER_HOUR} per hour per client.`, undefined, {
        'retry-after': String(seconds),
      });
    }
    const address = email.toLowerCase();
    const byAddress = await context.storage.rateLimits.hit(`resend-email:${address}`, DAY_MS, RESENDS_PER_ADDRESS_PER_DAY);
    if (byAddress.count > RESENDS_PER_ADDRESS_PER_DAY) return answer();
    // Each request is its own cause: one request mails once, a later one again.
    await context.storage.mail.requestResend({ cause: `resend:${crypto.randomUUID()}`, email: address }, context.clock.now());
    return answer();
  };
}
