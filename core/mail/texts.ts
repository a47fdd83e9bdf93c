/**
 * The texts of the mails, each a subject and a body with placeholders; the config file's `mail.texts`
 * replaces any of them (docs/mail.md). Placeholders: {product}, {keys}, {date}, {amount}, {session},
 * {howToEnter}; an unknown one is left as written.
 *
 * @module
 */
import type { TemplatedMailKind } from '../ports/mail.ts';

/** One mail's subject and body (plain text; the HTML part is made from the same words). */
export interface MailText {
  subject: string;
  body: string;
}

export type MailTexts = Record<TemplatedMailKind, MailText> & {
  /** How to enter a key in the app, for {howToEnter}. */
  howToEnter: string;
};

export const DEFAULT_MAIL_TEXTS: MailTexts = {
  keys: {
    subject: 'Your {product} license key',
    body: 'Thank you for your order of {product} on {date} ({amount}).\n\n' +
      'Your license:\n\n{keys}\n\n{howToEnter}\n\n' +
      'Keep this message: it is your proof of purchase. Order reference: {session}.',
  },
  upgrade: {
    subject: 'Your {product} Plus key',
    body: 'Thank you for upgrading to Plus on {date} ({amount}).\n\n' +
      'Your Plus key:\n\n{keys}\n\n{howToEnter}\n\nOrder reference: {session}.',
  },
  revoked: {
    subject: 'Your {product} license was revoked',
    body: 'The licenses of your order of {product} of {date} were revoked (a refund, a chargeback, or by the vendor). ' +
      'These keys no longer activate:\n\n{keys}\n\n' +
      'If you think this is a mistake, reply to this message. Order reference: {session}.',
  },
  reinstated: {
    subject: 'Your {product} license is valid again',
    body: 'The licenses of your order of {product} of {date} are valid again:\n\n{keys}\n\n{howToEnter}\n\n' +
      'Order reference: {session}.',
  },
  resend: {
    subject: 'Your {product} license keys',
    body: 'You asked for the license keys bought with this address. Here they are:\n\n{keys}\n\n{howToEnter}\n\n' +
      'If you did not ask for this message, you can ignore it: it went to this address only.',
  },
  howToEnter: 'To enter a key: open the app, choose Help > Enter license key, paste the key and choose Activate.',
};
