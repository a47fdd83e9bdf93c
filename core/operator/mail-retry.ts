/**
 * The failed mails, and sending one again: a mail the relay refused for good (a 5xx, or retries run out)
 * stays failed until the operator fixes the cause and sends it again, at most once an hour per mail. The
 * retry keeps the mail's Message-ID, so a receiver that did get it can tell the repeat. Audited.
 *
 * @module
 */
import * as v from 'valibot';
import { operatorChange } from './context.ts';
import { OperatorError } from './errors.ts';
import { QueryDigits } from './json-views.ts';
import { mailView, MailViewSchema } from './mail.ts';
import { defineOperation } from './operation.ts';
import { storedIdOf } from './path-param.ts';

/** How long after a retry the same mail may be sent again. */
export const RETRY_EVERY_MS = 60 * 60 * 1000;

/** The most mails one list answers, and how many without `limit`. */
const MAX_LISTED = 200;
const LISTED = 50;

export const MailsQuerySchema = v.strictObject({
  state: v.optional(v.picklist(['failed'], 'must be failed (the mails the operator may send again)')),
  limit: v.optional(v.pipe(QueryDigits, v.minValue(1, `must be 1 to ${MAX_LISTED}`), v.maxValue(MAX_LISTED, `must be 1 to ${MAX_LISTED}`))),
});

export const FailedMailsSchema = v.object({
  mails: v.array(MailViewSchema),
});

export const listFailedMails = defineOperation({
  operationId: 'listFailedMails',
  method: 'GET',
  path: '/mails',
  summary: 'The failed mails, newest first: those the relay refused for good, which POST /mails/{id}/retry sends again; ' +
    `state (failed, the default and only value), limit (1-${MAX_LISTED}, ${LISTED} by default).`,
  query: MailsQuerySchema,
  output: FailedMailsSchema,
  status: 200,
  errors: ['invalid_query'],
  async run(context, { query }) {
    const mails = await context.storage.mail.list({ state: query.state ?? 'failed', limit: query.limit ?? LISTED });
    return { mails: mails.map(mailView) };
  },
});

export const retryMail = defineOperation({
  operationId: 'retryMail',
  method: 'POST',
  path: '/mails/:id/retry',
  summary: 'Send a failed mail again now, with the same Message-ID: at most once an hour per mail.',
  output: MailViewSchema,
  status: 202,
  errors: ['mail_not_found', 'mail_not_failed', 'mail_retried_recently'],
  async run(context, { params }, caller) {
    const id = storedIdOf(params.id, 'mail_not_found', 'mail');
    const now = context.clock.now();
    const mail = await operatorChange(context, caller, async (tx) => {
      const retried = await tx.mail.retryFailed(id, now, now - RETRY_EVERY_MS);
      if (retried) {
        const target = `${id}: ${retried.kind}${retried.session === null ? '' : ` of ${retried.session}`}`;
        return { result: retried, audit: { action: 'mail.retried', target } };
      }
      const found = await tx.mail.get(id);
      if (!found) throw new OperatorError('mail_not_found', `No mail has id ${id}.`);
      if (found.state !== 'failed') throw new OperatorError('mail_not_failed', `Mail ${id} is ${found.state}, not failed.`);
      const again = new Date(found.retriedAt! + RETRY_EVERY_MS).toISOString();
      throw new OperatorError(
        'mail_retried_recently',
        `Mail ${id} was sent again at ${new Date(found.retriedAt!).toISOString()}; it may be sent again from ${again}.`,
      );
    });
    return mailView(mail);
  },
});
