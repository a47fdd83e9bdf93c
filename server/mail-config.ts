/**
 * Mail settings: `SMTP_URL` from the environment (a secret: it holds the credentials), the sender and
 * the texts from the config file's `mail` section. No node:* here: the Worker bundles the file schema.
 *
 * @module
 */
import * as v from 'valibot';
import { TEMPLATED_MAIL_KINDS } from '../core/ports/mail.ts';
import type { MailTexts } from '../core/mail/texts.ts';
import { ConfigError } from './config-error.ts';

const Text = v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(10_000, 'must be at most 10000 characters'));
const MailTextSchema = v.strictObject({ subject: v.pipe(Text, v.maxLength(200, 'must be at most 200 characters')), body: Text });

/** The config file's `mail` section (docs/mail.md). */
export const MailFileSchema = v.strictObject({
  /** The sender, e.g. "Legacy Sheet Converter <licenses@example.com>". */
  from: v.optional(v.pipe(v.string(), v.regex(/^[^\r\n<>]*<[^\s@<>]+@[^\s@<>]+>$|^[^\s@<>]+@[^\s@<>]+$/, 'must be an address, or a name and <address>'))),
  texts: v.optional(
    v.strictObject({
      ...Object.fromEntries(TEMPLATED_MAIL_KINDS.map((kind) => [kind, v.optional(MailTextSchema)])) as Record<
        (typeof TEMPLATED_MAIL_KINDS)[number],
        v.OptionalSchema<typeof MailTextSchema, undefined>
      >,
      howToEnter: v.optional(Text),
    }),
  ),
  /** false: no requester is told when their linked request ships (docs/operating.md); true by default. */
  requestersTold: v.optional(v.boolean()),
});

export type MailFile = v.InferOutput<typeof MailFileSchema>;

/** The mail settings the server starts with. */
export interface MailConfig {
  /** SMTP_URL; null: mail is off (written and shown, never sent). */
  smtpUrl: string | null;
  /** The sender address. */
  from: string;
  /** The texts the file replaces. */
  texts: Partial<MailTexts>;
  /** Whether requesters are told when their request ships (the file's `mail.requestersTold`, true by default). */
  requestersTold: boolean;
}

/** The texts the file sets, without those it leaves to the defaults. */
export function mailTexts(file: MailFile | undefined): Partial<MailTexts> {
  return Object.fromEntries(Object.entries(file?.texts ?? {}).filter(([, text]) => text !== undefined)) as Partial<MailTexts>;
}

/**
 * The mail settings.
 *
 * @param smtpUrl SMTP_URL, checked by the caller.
 * @param file The config file's `mail` section.
 * @param productName The offer's productDisplayName.
 * @param host The host of the default sender: publicBaseUrl's, else SMTP_URL's.
 */
export function mailConfig(smtpUrl: string | null, file: MailFile | undefined, productName: string, host: string): MailConfig {
  if (/[\r\n<>"]/.test(productName)) throw new ConfigError('offer.productDisplayName cannot name a mail sender: set mail.from');
  return { smtpUrl, from: file?.from ?? `${productName} <no-reply@${host}>`, texts: mailTexts(file), requestersTold: file?.requestersTold ?? true };
}
