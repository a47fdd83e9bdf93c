/**
 * Fulfilment, one idempotent function for every way the provider's word arrives (a notification, a
 * status read, `orders reconcile`): the session moves, what the provider says of the buyer is kept, and
 * the keys are issued once. And the provider's refunds and disputes, applied to an order's standing.
 *
 * @module
 */
import { isRevoked, type OrderStanding } from '../ports/order-state.ts';
import { licenseVerdict, orderPaid } from '../webhooks/events.ts';
import type {
  AppEvent,
  CheckoutSession,
  Clock,
  GatewayReport,
  LicenseIssuer,
  LicenseKeys,
  Logger,
  PaymentFlag,
  PaymentGateway,
  Purchase,
  Storage,
} from '../ports/ports.ts';
import type { Order } from '../ports/store-ports.ts';
import { type CommittedChanges, recordChange, type StorageChange } from '../ports/change.ts';
import { isOneAddress } from '../schemas/email-address.ts';
import { keysMail, type MailSettings, verdictMail } from '../mail/messages.ts';
import { type SaleWindows, windowsOfSale } from './sale-windows.ts';

/** What fulfilment works with (an AppContext is one). */
export interface FulfilmentContext {
  readonly storage: Storage;
  /** Opens the changes that store the keys (core/ports/change.ts). */
  readonly changes: Pick<CommittedChanges, 'change'>;
  readonly licenses: LicenseIssuer;
  readonly gateway: Pick<PaymentGateway, 'simulated'>;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The mails' texts: the keys are mailed to the buyer with the save that stores them. */
  readonly mail: MailSettings;
  /** The update window each SKU sells: the keys are stored with the windows in force when they are issued. */
  readonly updateWindows: SaleWindows;
  count(event: AppEvent, times?: number): void;
}

/**
 * Opens the change that saves a session's keys: one of their own by default; reconcile's records its
 * audit entry in it too (core/operator/orders.ts), and is opened even when the keys were stored before.
 */
export type KeysChange = <T>(work: (tx: StorageChange) => Promise<T>) => Promise<T>;

/**
 * The keys of a paid session, signed and stored on first need; a race is settled by the first write.
 * They are signed before the change (a change waits for no outside service).
 */
export async function licensesFor(
  context: FulfilmentContext,
  session: CheckoutSession,
  buyer: Purchase | null = null,
  change?: KeysChange,
): Promise<LicenseKeys> {
  const stored = await context.storage.checkouts.getLicenses(session.id);
  if (stored) return change ? change(async () => stored) : stored;
  const issuedAt = context.clock.now();
  const sign = (product: 'standard' | 'plus') =>
    context.licenses.issue({ sessionId: session.id, sku: session.sku, product, issuedAt, simulated: context.gateway.simulated === true });
  const keys: LicenseKeys = {
    standard: session.sku === 'plus_addon' ? null : await sign('standard'),
    plus: session.sku === 'standard' ? null : await sign('plus'),
  };
  const run: KeysChange = change ?? ((work) => context.changes.change(work));
  const saved = await run(async (tx) => {
    const saved = await tx.checkouts.saveLicenses(session.id, keys, windowsOfSale(context.updateWindows, session.sku));
    // order.paid and the buyer's mail are written with the keys, by the one save that stores them.
    if (saved.stored) {
      await recordChange(tx, {
        at: issuedAt,
        event: orderPaid(session, saved.keys, buyer),
        mail: keysMail(context.mail, session, saved.keys, buyer, issuedAt),
      });
    }
    return saved;
  });
  // Counted by the one save that stored them: racers sign the same claims at the same instant into
  // identical keys, so comparing keys would count every racer.
  if (saved.stored) context.count('license_issued', (keys.standard === null ? 0 : 1) + (keys.plus === null ? 0 : 1));
  if (saved.stored && buyer?.email && !isOneAddress(buyer.email)) {
    context.logger.warn('keys not mailed: the buyer email is not one address', { session: session.id, email: buyer.email.slice(0, 100) });
  }
  return saved.keys;
}

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/** Provider text made storable: no control characters, at most `max` characters, null when empty. */
function clean(text: string | null, max: number): string | null {
  const value = text?.replace(CONTROL, '').trim().slice(0, max) ?? '';
  return value === '' ? null : value;
}

/** What the provider said of a buyer, within what the storage keeps: an email of 320, a name of 200, a country code. */
export function cleanPurchase(p: Purchase): Purchase {
  const country = clean(p.country, 2)?.toUpperCase() ?? null;
  return {
    email: clean(p.email, 320),
    name: clean(p.name, 200),
    country: country !== null && /^[A-Z]{2}$/.test(country) ? country : null,
    paymentRef: clean(p.paymentRef, 255),
    ...(p.amount !== null && /^\d{1,12}(\.\d{1,3})?$/.test(p.amount) && p.currency !== null && /^[A-Z]{3}$/.test(p.currency.toUpperCase())
      ? { amount: p.amount, currency: p.currency.toUpperCase() }
      : { amount: null, currency: null }),
  };
}

const UNKNOWN: Purchase = { email: null, name: null, country: null, paymentRef: null, amount: null, currency: null };

/**
 * Applies the provider's word on a session: moves it as the state machine allows and, once it is paid,
 * keeps the purchase and issues the keys (each at most once, whatever the order or number of calls).
 *
 * @param context The ports.
 * @param sessionId The session.
 * @param report What the provider says.
 * @param change Opens the keys' change (licensesFor), when the caller records more in it.
 * @returns The session afterwards, or null when this server has none with that id.
 */
export async function fulfil(context: FulfilmentContext, sessionId: string, report: GatewayReport, change?: KeysChange): Promise<CheckoutSession | null> {
  const session = (await context.storage.checkouts.advanceCheckout(sessionId, report.status)) ?? (await adoptRecovered(context, sessionId, report));
  if (session?.state !== 'paid') return session;
  const purchase = cleanPurchase(report.purchase ?? UNKNOWN);
  await context.storage.orders.recordPurchase(session.id, purchase, context.clock.now());
  // A refund or dispute that came before this payment was known here counts now, before any key is shown.
  if (purchase.paymentRef !== null) await applyKeptPaymentEvents(context, purchase.paymentRef, '');
  await licensesFor(context, session, purchase, change);
  return session;
}

/**
 * A session the provider made from an expired one of ours (abandoned-checkout recovery): stored with the
 * original's product and channel, then moved as reported. Null when it recovers no session of ours.
 */
async function adoptRecovered(context: FulfilmentContext, sessionId: string, report: GatewayReport): Promise<CheckoutSession | null> {
  const original = report.recoveredFrom === undefined ? null : await context.storage.checkouts.getCheckout(report.recoveredFrom);
  if (original === null) return null;
  const now = context.clock.now();
  await context.storage.checkouts.createCheckout({
    id: sessionId,
    sku: original.sku,
    channel: original.channel,
    url: original.url,
    state: 'pending',
    createdAt: now,
    expiresAt: now,
  });
  context.logger.info('recovered checkout session adopted', { session: sessionId, recoveredFrom: original.id });
  return context.storage.checkouts.advanceCheckout(sessionId, report.status);
}

/** A refund or dispute of a payment, as the provider reported it. */
export interface PaymentEvent {
  /** The provider's id of the payment. */
  ref: string;
  flag: PaymentFlag;
  /** The provider's id of the dispute, if it gives one. */
  dispute?: string | undefined;
  /** Where it came from, for the audit trail and the log, e.g. "charge.refunded evt_123". */
  source: string;
  requestId: string;
}

/** The ports a payment event needs; without mail settings (the simulator's own buttons) no notice is mailed. */
type PaymentContext = {
  readonly storage: Storage;
  readonly changes: Pick<CommittedChanges, 'change'>;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly mail?: MailSettings | undefined;
};

/**
 * Applies the refunds and disputes kept for a payment that had no order when they came (each is taken
 * once, whoever gets there first: the fulfilment, or the event that raced it).
 */
async function applyKeptPaymentEvents(context: PaymentContext, ref: string, requestId: string): Promise<void> {
  const sessionId = await context.storage.orders.sessionOfPayment(ref);
  if (sessionId === null) return;
  for (const kept of await context.storage.orders.takePaymentEvents(ref)) {
    const source = `${kept.flag}${kept.dispute ? ` ${kept.dispute}` : ''} kept until the payment was known`;
    await flagOrder(context, sessionId, { ref, flag: kept.flag, dispute: kept.dispute, source, requestId });
  }
}

/**
 * Applies a refund or dispute to the order the payment paid for: its flags are set (idempotent, in any
 * order), and the licenses are revoked or reinstated when the verdict changes. Each change goes to the
 * audit trail and the log. An event for a payment no order has yet is kept and applied when the session
 * it paid for is fulfilled here (the refund can come before the completed event or the first poll).
 *
 * @returns The order afterwards, or null when no order has that payment (yet).
 */
export async function applyPaymentEvent(context: PaymentContext, event: PaymentEvent): Promise<Order | null> {
  const { storage, logger } = context;
  const sessionId = await storage.orders.sessionOfPayment(event.ref);
  if (sessionId !== null) return flagOrder(context, sessionId, event);
  await storage.orders.keepPaymentEvent(event.ref, { flag: event.flag, dispute: event.dispute ?? '' }, context.clock.now());
  logger.info('payment event kept until its payment is known here', { requestId: event.requestId, payment: event.ref, source: event.source });
  // A fulfilment that raced this event may have missed what was just kept.
  await applyKeptPaymentEvents(context, event.ref, event.requestId);
  return null;
}

async function flagOrder(context: PaymentContext, sessionId: string, event: PaymentEvent): Promise<Order | null> {
  const { logger } = context;
  // The flag, with its event, its audit entry and the buyer's notice: one change.
  const flagged = await context.changes.change(async (tx) => {
    const flagged = await tx.orders.flag(sessionId, event.flag, event.dispute);
    if (!flagged) return null;
    const at = context.clock.now();
    const draft = licenseVerdict(flagged.before, flagged.order, event.source);
    const change = flagChange(flagged.before, flagged.order, event);
    await recordChange(tx, {
      at,
      event: draft,
      audit: change && { at, ...change, requestId: event.requestId, actor: null },
      mail: draft && context.mail ? verdictMail(context.mail, flagged.order, at) : null,
    });
    return flagged;
  });
  if (!flagged) return null;
  const change = flagChange(flagged.before, flagged.order, event);
  if (change) logger.info('order change', { ...change, requestId: event.requestId, session: sessionId, revoked: isRevoked(flagged.order.standing) });
  return flagged.order;
}

/** What a refund or dispute changed, for the audit trail; null when the order's flags stayed as they were. */
function flagChange(before: OrderStanding, order: Order, event: PaymentEvent): { action: string; target: string } | null {
  const after = order.standing;
  if (before.refunded === after.refunded && before.disputed === after.disputed && before.disputeWon === after.disputeWon) return null;
  const revoked = isRevoked(after);
  const verdict = revoked === isRevoked(before) ? '' : revoked ? ': licenses revoked' : ': licenses reinstated';
  return { action: `order.${event.flag}`, target: `${order.session.id}${verdict} (${event.source})` };
}
