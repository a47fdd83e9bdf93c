/**
 * The mails the service writes, each from its cause: the keys at fulfilment (or the Plus key of an
 * add-on), the Plus key of an operator's upgrade, the notice of a revoke or reinstate, and a resend of
 * the valid keys of an address. Each has a cause key unique for all time, so a cause mails once.
 *
 * @module
 */
import { isRevoked } from '../ports/order-state.ts';
import { type MailDraft, type MailHtml, mailHtmlOf, type TemplatedMailKind } from '../ports/mail.ts';
import type { CheckoutSession, CheckoutSku, LicenseKeys, Purchase } from '../ports/ports.ts';
import type { Order } from '../ports/store-ports.ts';
import { isOneAddress } from '../schemas/email-address.ts';
import { type MailValues, renderMail } from './render.ts';
import { DEFAULT_MAIL_TEXTS, type MailTexts } from './texts.ts';

/** What the mails are written with. */
export interface MailSettings {
  /** Whether a sender is configured (SMTP_URL): without one, mails are written and shown, never sent. */
  readonly enabled: boolean;
  readonly texts: MailTexts;
  /** The product's name, e.g. "Legacy Sheet Converter" (the offer's productDisplayName). */
  readonly productName: string;
  /** Renders the HTML part (adapters/mail-html); null: mails are text only, their `html` empty. */
  readonly html: MailHtml | null;
}

/** Mail settings with the default texts. */
export function mailSettings(productName: string, enabled = false, texts: Partial<MailTexts> = {}, html: MailHtml | null = null): MailSettings {
  return { enabled, productName, texts: { ...DEFAULT_MAIL_TEXTS, ...texts }, html };
}

const isoDay = (at: number) => new Date(at).toISOString().slice(0, 10);

function productOf(settings: MailSettings, sku: CheckoutSku): string {
  if (sku === 'plus_addon') return `${settings.productName} Plus`;
  if (sku === 'plus_bundle') return `${settings.productName} with Plus`;
  return settings.productName;
}

function keyLines(settings: MailSettings, keys: LicenseKeys, only?: 'plus'): MailValues['keys'] {
  const lines: { label: string; key: string }[] = [];
  if (keys.standard !== null && only === undefined) lines.push({ label: settings.productName, key: keys.standard });
  if (keys.plus !== null) lines.push({ label: `${settings.productName} Plus`, key: keys.plus });
  return lines;
}

const amountOf = (p: Pick<Purchase, 'amount' | 'currency'>) => (p.amount !== null && p.currency !== null ? `${p.amount} ${p.currency}` : 'amount not known');

function draft(
  settings: MailSettings,
  kind: TemplatedMailKind,
  cause: string,
  session: string | null,
  to: string,
  values: Omit<MailValues, 'howToEnter'>,
): MailDraft {
  const { subject, text, content } = renderMail(settings.texts[kind], { ...values, howToEnter: settings.texts.howToEnter });
  return { cause, kind, session, to, subject, text, html: mailHtmlOf(settings.html, content) };
}

/** Whether an address on file may be mailed: one address (schemas/email-address.ts), never a list a mail library would split. */
const mailable = (email: string | null | undefined): email is string => typeof email === 'string' && isOneAddress(email);

/** The keys of a paid session, to its buyer (the Plus key alone for an add-on); null when no address is known, or it is not one address. */
export function keysMail(settings: MailSettings, session: CheckoutSession, keys: LicenseKeys, buyer: Purchase | null, at: number): MailDraft | null {
  if (!buyer || !mailable(buyer.email)) return null;
  const kind = session.sku === 'plus_addon' ? 'upgrade' : 'keys';
  // The upgrade's texts name the product and say "Plus" themselves.
  const product = kind === 'upgrade' ? settings.productName : productOf(settings, session.sku);
  const values = { product, date: isoDay(at), amount: amountOf(buyer), session: session.id, keys: keyLines(settings, keys) };
  return draft(settings, kind, `keys:${session.id}`, session.id, buyer.email, values);
}

/** The Plus key an operator's upgrade issued, to the buyer; null when no address is known, or it is not one address. */
export function upgradeMail(settings: MailSettings, order: Order, keys: LicenseKeys, at: number): MailDraft | null {
  if (!mailable(order.purchase.email)) return null;
  const values = { product: settings.productName, date: isoDay(at), amount: 'no charge', session: order.session.id, keys: keyLines(settings, keys, 'plus') };
  return draft(settings, 'upgrade', `upgrade:${order.session.id}`, order.session.id, order.purchase.email, values);
}

/** The notice of a changed verdict (revoked or reinstated), made at `at`; null when no address (or not one address) or keys. */
export function verdictMail(settings: MailSettings, order: Order, at: number): MailDraft | null {
  if (!mailable(order.purchase.email) || order.keys === null) return null;
  const kind = isRevoked(order.standing) ? 'revoked' : 'reinstated';
  const values = {
    product: productOf(settings, order.session.sku),
    date: isoDay(order.paidAt ?? order.session.createdAt),
    amount: amountOf(order.purchase),
    session: order.session.id,
    keys: keyLines(settings, order.keys),
  };
  return draft(settings, kind, `${kind}:${order.session.id}:${at}`, order.session.id, order.purchase.email, values);
}

/**
 * The valid keys of an address's orders, to that address as the newest of them has it on file (not as a
 * request typed it); null when it has none (revoked orders and orders without keys are left out), or
 * that address is not one address.
 *
 * @param cause The request's own cause key (one resend request mails once).
 * @param session The order, when the resend is of one order (the operator's).
 */
export function resendMail(settings: MailSettings, email: string, orders: readonly Order[], cause: string, session: string | null = null): MailDraft | null {
  const valid = orders.filter((o) => o.session.state === 'paid' && o.keys !== null && !isRevoked(o.standing));
  if (valid.length === 0) return null;
  const keys = valid.flatMap((o) =>
    keyLines(settings, o.keys!).map((k) => ({ label: `${k.label} (order ${o.session.id}, ${isoDay(o.paidAt ?? o.session.createdAt)})`, key: k.key }))
  );
  const values = { product: settings.productName, date: '', amount: '', session: '', keys };
  const to = valid[0]!.purchase.email ?? email;
  return mailable(to) ? draft(settings, 'resend', cause, session, to, values) : null;
}
