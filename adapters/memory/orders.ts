/**
 * Orders in memory: what the provider said of each paid session, its fulfilment time and its standing,
 * beside memory storage's sessions and keys. Lost on restart like the rest.
 *
 * @module
 */
import { dayOf } from '../../core/budgets/budgets.ts';
import { addDecimals, zeroLike } from '../../core/formats/decimal.ts';
import type { OrderCount } from '../../core/ports/store-ports.ts';
import { deleteKey, type MemoryFace, patch, setKey, type Undo } from './undo.ts';
import { type DisputeStates, GOOD_STANDING, type OrderStanding, providerRevokes, withPaymentEvent } from '../../core/ports/order-state.ts';
import { type CheckoutSession, type KeyWindows, type LicenseKeys, LIFETIME_KEYS, type Purchase } from '../../core/ports/ports.ts';
import type { KeptPaymentEvent, Order, OrderStore } from '../../core/ports/store-ports.ts';

interface Kept {
  purchase: Purchase;
  paidAt: number | null;
  standing: OrderStanding;
  disputes: DisputeStates;
}

const NOTHING_KNOWN: Purchase = Object.freeze({ email: null, name: null, country: null, paymentRef: null, amount: null, currency: null });

/**
 * Creates the order store over memory storage's maps.
 *
 * @param sessions The stored sessions by id.
 * @param licenses The stored keys by session id.
 * @param windows The update window each session's keys were sold with.
 */
export function createMemoryOrders(
  sessions: ReadonlyMap<string, CheckoutSession>,
  licenses: Map<string, LicenseKeys>,
  windows: Map<string, KeyWindows>,
): MemoryFace<OrderStore> {
  const kept = new Map<string, Kept>();
  /** Refunds and disputes of payments no order has yet, by payment. */
  const early = new Map<string, KeptPaymentEvent[]>();
  const keptOf = (id: string, undo: Undo | undefined): Kept => {
    let found = kept.get(id);
    if (!found) setKey(kept, id, found = { purchase: { ...NOTHING_KNOWN }, paidAt: null, standing: GOOD_STANDING, disputes: {} }, undo);
    return found;
  };
  const order = (id: string): Order | null => {
    const session = sessions.get(id);
    if (!session) return null;
    const k = kept.get(id);
    const keys = licenses.get(id);
    return {
      session: { ...session },
      purchase: { ...(k?.purchase ?? NOTHING_KNOWN) },
      paidAt: k?.paidAt ?? null,
      keys: keys ? { ...keys } : null,
      windows: { ...(windows.get(id) ?? LIFETIME_KEYS) },
      standing: { ...(k?.standing ?? GOOD_STANDING) },
    };
  };
  const newest = (o: Order) => o.paidAt ?? o.session.createdAt;

  return (undo) => ({
    async recordPurchase(id, purchase, at) {
      if (!sessions.has(id)) return;
      const k = keptOf(id, undo);
      const known = {
        email: k.purchase.email ?? purchase.email,
        name: k.purchase.name ?? purchase.name,
        country: k.purchase.country ?? purchase.country,
        paymentRef: k.purchase.paymentRef ?? purchase.paymentRef,
        ...(k.purchase.amount === null
          ? { amount: purchase.amount, currency: purchase.currency }
          : { amount: k.purchase.amount, currency: k.purchase.currency }),
      };
      patch(k, { purchase: known, paidAt: k.paidAt ?? at }, undo);
    },
    get: async (id) => order(id),
    async find(filter) {
      if (filter.session !== undefined) return [order(filter.session)].filter((o): o is Order => o !== null).slice(0, filter.limit);
      const email = filter.email?.toLowerCase();
      const name = filter.name?.toLowerCase();
      const found: Order[] = [];
      for (const [id, session] of sessions) {
        if (session.state !== 'paid') continue;
        if (email !== undefined && kept.get(id)?.purchase.email?.toLowerCase() !== email) continue;
        if (name !== undefined && !kept.get(id)?.purchase.name?.toLowerCase().includes(name)) continue;
        found.push(order(id)!);
      }
      return found.sort((a, b) => newest(b) - newest(a) || (a.session.id < b.session.id ? 1 : -1)).slice(0, filter.limit);
    },
    async inPeriod({ from, until, after, limit }) {
      const found: Order[] = [];
      for (const [id, session] of sessions) {
        if (session.state !== 'paid') continue;
        const o = order(id)!;
        const at = newest(o);
        if (at < from || at >= until) continue;
        if (after && (at < after.at || (at === after.at && id <= after.session))) continue;
        found.push(o);
      }
      return found.sort((a, b) => newest(a) - newest(b) || (a.session.id < b.session.id ? -1 : 1)).slice(0, limit);
    },
    async countByDay(fromDay, toDay) {
      const counts = new Map<string, OrderCount>();
      for (const [id, k] of kept) {
        const session = sessions.get(id);
        if (k.paidAt === null || session?.state !== 'paid') continue;
        const day = dayOf(k.paidAt);
        if (day < fromDay || day > toDay) continue;
        const { amount, currency } = k.purchase;
        const kept = amount !== null && providerRevokes(k.standing) ? zeroLike(amount) : amount;
        const key = `${day} ${session.sku} ${currency}`;
        const found = counts.get(key) ?? { day, product: session.sku, currency, count: 0, revenue: null, refunded: 0, disputed: 0, netRevenue: null };
        counts.set(key, found);
        found.count++;
        if (k.standing.refunded) found.refunded++;
        if (k.standing.disputed) found.disputed++;
        if (amount !== null) found.revenue = found.revenue === null ? amount : addDecimals(found.revenue, amount);
        if (kept !== null) found.netRevenue = found.netRevenue === null ? kept : addDecimals(found.netRevenue, kept);
      }
      // As SQL orders them: day, product, then currency with the unknown one first.
      const currencyOrder = (c: string | null) => (c === null ? '' : c);
      return [...counts.values()].sort((a, b) =>
        a.day - b.day || a.product.localeCompare(b.product) || currencyOrder(a.currency).localeCompare(currencyOrder(b.currency))
      );
    },
    // One pass over the keys: memory storage is capped (docs/deploy.md), and a key is looked up rarely.
    async ofLicenseKey(key) {
      for (const [id, keys] of licenses) if (keys.standard === key || keys.plus === key) return order(id);
      return null;
    },
    async sessionOfPayment(ref) {
      for (const [id, k] of kept) if (k.purchase.paymentRef === ref && sessions.has(id)) return id;
      return null;
    },
    async flag(id, flag, dispute) {
      if (!sessions.has(id)) return null;
      const k = keptOf(id, undo);
      const before = k.standing;
      patch(k, withPaymentEvent(before, k.disputes, flag, dispute), undo);
      return { before: { ...before }, order: order(id)! };
    },
    async keepPaymentEvent(ref, event) {
      const events = early.get(ref) ?? [];
      if (!events.some((e) => e.flag === event.flag && e.dispute === event.dispute)) setKey(early, ref, [...events, { ...event }], undo);
    },
    async takePaymentEvents(ref) {
      const events = early.get(ref) ?? [];
      deleteKey(early, ref, undo);
      return events;
    },
    async override(id, override, reason, at) {
      if (!sessions.has(id)) return null;
      const k = keptOf(id, undo);
      const before = k.standing;
      patch(k, { standing: { ...before, override, overrideReason: reason, overrideAt: at } }, undo);
      return { before: { ...before }, order: order(id)! };
    },
    async addPlusKey(id, key, windowDays = null) {
      const keys = licenses.get(id);
      if (!keys) return null;
      if (keys.plus !== null) return { keys: { ...keys }, stored: false };
      patch(keys, { plus: key }, undo);
      setKey(windows, id, { ...(windows.get(id) ?? LIFETIME_KEYS), plus: windowDays }, undo);
      return { keys: { ...keys }, stored: true };
    },
  });
}
