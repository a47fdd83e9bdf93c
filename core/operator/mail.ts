/**
 * The operator's mail: an order's messages (what was sent, or with mail off, what would have been), and
 * a resend of an order's valid keys to its buyer. A resend is an audited change.
 *
 * @module
 */
import * as v from 'valibot';
import { resendMail } from '../mail/messages.ts';
import { MAIL_KINDS, type StoredMail } from '../ports/mail.ts';
import { isRevoked } from '../ports/order-state.ts';
import { operatorChange } from './context.ts';
import { OperatorError } from './errors.ts';
import { isoOrNull, IsoTime } from './json-views.ts';
import { defineOperation } from './operation.ts';

/** The most messages of one order listed. */
const LISTED = 50;

export const MailViewSchema = v.object({
  id: v.number(),
  kind: v.picklist(MAIL_KINDS),
  session: v.pipe(v.nullable(v.string()), v.description('The checkout session (order) it is about, or null (a resend of several orders, a requester told).')),
  to: v.string(),
  subject: v.string(),
  text: v.string(),
  html: v.string(),
  state: v.pipe(v.picklist(['pending', 'sent', 'failed']), v.description('pending: not sent yet (or mail is off); failed: given up after the retries.')),
  attempts: v.number(),
  createdAt: IsoTime,
  nextAttemptAt: v.nullable(IsoTime),
  sentAt: v.nullable(IsoTime),
  lastError: v.nullable(v.string()),
  retriedAt: v.pipe(v.nullable(IsoTime), v.description('When the operator last sent it again after it failed (POST /mails/{id}/retry), or null.')),
});

export type MailView = v.InferOutput<typeof MailViewSchema>;

export function mailView(m: StoredMail): MailView {
  return {
    id: m.id,
    kind: m.kind,
    session: m.session,
    to: m.to,
    subject: m.subject,
    text: m.text,
    html: m.html,
    state: m.state,
    attempts: m.attempts,
    createdAt: new Date(m.createdAt).toISOString(),
    nextAttemptAt: isoOrNull(m.nextAttemptAt),
    sentAt: isoOrNull(m.sentAt),
    lastError: m.lastError,
    retriedAt: isoOrNull(m.retriedAt),
  };
}

export const OrderMailsSchema = v.object({
  mailOn: v.pipe(v.boolean(), v.description('false: SMTP_URL is not set; messages are kept and shown, never sent.')),
  mails: v.array(MailViewSchema),
});

export const listOrderMails = defineOperation({
  operationId: 'listOrderMails',
  method: 'GET',
  path: '/orders/:session/mails',
  summary: "An order's messages to its buyer, newest first: sent, pending, or (mail off) what would have been sent.",
  output: OrderMailsSchema,
  status: 200,
  errors: ['order_not_found'],
  async run(context, { params }) {
    const order = await context.storage.orders.get(params.session);
    if (!order) throw new OperatorError('order_not_found', `No checkout session has id ${JSON.stringify(params.session)}.`);
    const mails = await context.storage.mail.list({ session: order.session.id, limit: LISTED });
    return { mailOn: context.mail.enabled, mails: mails.map(mailView) };
  },
});

export const resendOrderMail = defineOperation({
  operationId: 'resendOrderMail',
  method: 'POST',
  path: '/orders/:session/resend',
  summary: "Mail a paid order's valid keys to its buyer again (each request mails once).",
  output: MailViewSchema,
  status: 202,
  errors: ['order_not_found', 'order_not_paid', 'order_revoked', 'order_without_email'],
  async run(context, { params }, caller) {
    // The order is read and checked in the change that queues its message with the audit entry.
    const id = await operatorChange(context, caller, async (tx) => {
      const order = await tx.orders.get(params.session);
      const id = order?.session.id;
      if (!order) throw new OperatorError('order_not_found', `No checkout session has id ${JSON.stringify(params.session)}.`);
      if (order.session.state !== 'paid' || order.keys === null) {
        throw new OperatorError('order_not_paid', `Checkout session ${id} is ${order.session.state}, with no keys.`);
      }
      if (isRevoked(order.standing)) throw new OperatorError('order_revoked', `The licenses of ${id} are revoked.`);
      if (!order.purchase.email) throw new OperatorError('order_without_email', `The payment provider gave no email address for ${id}.`);
      const draft = resendMail(context.mail, order.purchase.email, [order], `resend:${id}:${caller.requestId}`, id ?? null);
      if (!draft) {
        throw new OperatorError(
          'order_without_email',
          `The email on file for ${id} is not one address: ${JSON.stringify(order.purchase.email.slice(0, 100))}.`,
        );
      }
      return { result: order.session.id, audit: { action: 'order.mail_resent', target: order.session.id }, mail: draft };
    });
    const [written] = await context.storage.mail.list({ session: id, limit: 1 });
    return mailView(written!);
  },
});
