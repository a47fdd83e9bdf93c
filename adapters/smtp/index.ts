/**
 * The SMTP mail sender over nodemailer (the Node field's SMTP client): `smtp://` (STARTTLS when the
 * server offers it) or `smtps://` (TLS from the start), credentials in the URL. A 5xx answer is a
 * refusal for good (the message is not retried); anything else (no connection, a 4xx, a timeout, the
 * worker's deadline) is tried again by the mail worker.
 *
 * @module
 */
import nodemailer from 'nodemailer';
import { type MailSender, PermanentMailError } from '../../core/ports/mail.ts';
import { isOneAddress } from '../../core/schemas/email-address.ts';

/**
 * How long a connection, the greeting and a quiet socket may take (ms): each below the mail worker's
 * whole-message deadline (60 s, core/mail/worker.ts), which also ends a relay that answers a byte at a
 * time. `socketCloseTimeout: 0` drops the connection at once when an attempt ends, so an attempt cut at
 * its deadline cannot still hand the relay its last step.
 */
export const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000, socketCloseTimeout: 0 };

/**
 * Creates a sender for an SMTP URL.
 *
 * @param url `smtp://user:password@host:587` or `smtps://user:password@host:465`.
 */
export function createSmtpSender(url: string): MailSender {
  const parsed = new URL(url);
  const transport = nodemailer.createTransport({
    host: parsed.hostname.replace(/^\[|\]$/g, ''),
    port: parsed.port === '' ? (parsed.protocol === 'smtps:' ? 465 : 587) : Number(parsed.port),
    secure: parsed.protocol === 'smtps:',
    ...(parsed.username ? { auth: { user: decodeURIComponent(parsed.username), pass: decodeURIComponent(parsed.password) } } : {}),
    ...SMTP_TIMEOUTS,
  });
  return {
    async send(mail, signal) {
      // nodemailer reads "a, b" as two recipients: only one bare address is ever handed to it (a message
      // written before the rule, or by a custom store, is refused for good rather than sent to a list).
      if (!isOneAddress(mail.to)) throw new PermanentMailError(`the recipient ${JSON.stringify(mail.to.slice(0, 100))} is not one email address`);
      try {
        const message = {
          from: mail.from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          // An empty HTML part (no renderer, createApp without mailHtml) is left out: text only.
          ...(mail.html ? { html: mail.html } : {}),
          messageId: mail.messageId,
          // RFC 8058 one-click unsubscribe: the address, and that a POST to it is enough.
          ...(mail.listUnsubscribe
            ? { headers: { 'List-Unsubscribe': `<${mail.listUnsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } }
            : {}),
        };
        await transport.sendMail(signal ? { ...message, signal } : message);
      } catch (error) {
        const code = (error as { responseCode?: unknown }).responseCode;
        if (typeof code === 'number' && code >= 500) throw new PermanentMailError((error as Error).message);
        throw error;
      }
    },
    async close() {
      transport.close();
    },
  };
}
