/**
 * Orders in PostgreSQL and PGlite: columns of checkout_sessions (migration 13) joined with the keys.
 * A provider event's standing is computed by core/ports/order-state.ts inside a transaction that holds the
 * session's row, so the rule exists once.
 *
 * @module
 */
import { DAY_MS } from '../../core/budgets/budgets.ts';
import { type DisputeStates, type OrderOverride, type OrderStanding, withPaymentEvent } from '../../core/ports/order-state.ts';
import type { CheckoutSession, LicenseKeys, SavedLicenses } from '../../core/ports/ports.ts';
import type { KeptPaymentEvent, Order, OrderCount, OrderStore } from '../../core/ports/store-ports.ts';
import type { SqlClient, SqlSession, SqlValue } from './client.ts';
import { epochMs, fromEpochMs } from './time.ts';

const STANDING = `s.refunded, s.disputed, s.dispute_won as "disputeWon", s.override, s.override_reason as "overrideReason",
  ${epochMs('s.override_at')} as "overrideAt"`;

const SELECT = `select s.id, s.sku, s.channel, s.url, s.state, ${epochMs('s.created_at')} as "createdAt", ${epochMs('s.expires_at')} as "expiresAt",
  s.buyer_email as email, s.buyer_name as name, s.buyer_country as country, s.payment_ref as "paymentRef", ${epochMs('s.paid_at')} as "paidAt",
  s.amount::text as amount, s.currency,
  l.session_id is not null as "hasKeys", l.standard_key as standard, l.plus_key as plus,
  l.standard_updates_days as "standardDays", l.plus_updates_days as "plusDays", ${STANDING}
from checkout_sessions s left join licenses l on l.session_id = s.id`;

type Row =
  & CheckoutSession
  & OrderStanding
  & {
    email: string | null;
    name: string | null;
    country: string | null;
    paymentRef: string | null;
    amount: string | null;
    currency: string | null;
    paidAt: number | null;
    hasKeys: boolean;
    standard: string | null;
    plus: string | null;
    standardDays: number | null;
    plusDays: number | null;
  };

const orderOf = (r: Row): Order => ({
  session: { id: r.id, sku: r.sku, channel: r.channel, url: r.url, state: r.state, createdAt: r.createdAt, expiresAt: r.expiresAt },
  purchase: { email: r.email, name: r.name, country: r.country, paymentRef: r.paymentRef, amount: r.amount, currency: r.currency },
  paidAt: r.paidAt,
  keys: r.hasKeys ? { standard: r.standard, plus: r.plus } : null,
  windows: { standard: r.standardDays, plus: r.plusDays },
  standing: {
    refunded: r.refunded,
    disputed: r.disputed,
    disputeWon: r.disputeWon,
    override: r.override,
    overrideReason: r.overrideReason,
    overrideAt: r.overrideAt,
  },
});

// The first word of the provider on each field wins; the fulfilment time is set once.
const RECORD = `update checkout_sessions set
  buyer_email = coalesce(buyer_email, $2::text), buyer_name = coalesce(buyer_name, $3::text),
  buyer_country = coalesce(buyer_country, $4::text), payment_ref = coalesce(payment_ref, $5::text),
  paid_at = coalesce(paid_at, ${fromEpochMs('$6')}),
  amount = case when amount is null then $7::numeric else amount end,
  currency = case when amount is null then $8::text else currency end
where id = $1::text`;

const GET = `${SELECT} where s.id = $1::text`;
const newest = (limit: string) => `order by coalesce(s.paid_at, s.created_at) desc, s.id collate "C" desc limit ${limit}::int`;
const PAID = `${SELECT} where s.state = 'paid' ${newest('$1')}`;
const BY_EMAIL = `lower(s.buyer_email) = lower($N::text)`;
const BY_NAME = `strpos(lower(s.buyer_name), lower($N::text)) > 0`;
// On the expression of the checkout_sessions_paid index; session ids compare bytewise (collate "C") as in memory.
const PAID_AT = 'coalesce(s.paid_at, s.created_at)';
const IN_PERIOD = `${SELECT} where s.state = 'paid' and ${PAID_AT} >= ${fromEpochMs('$1')} and ${PAID_AT} < ${fromEpochMs('$2')}
  and ($3::float8 is null or ${epochMs(PAID_AT)} > $3::float8 or (${epochMs(PAID_AT)} = $3::float8 and s.id collate "C" > $4::text collate "C"))
order by ${PAID_AT}, s.id collate "C" limit $5::int`;
// The range is on the expression of the checkout_sessions_paid index (equal to paid_at where it is set),
// so that the index serves it: on paid_at itself, GET /stats read every session ever paid.
// amount * 0 keeps the amount's decimals, so that an all-refunded day nets "0.00", not "0".
const COUNT_BY_DAY = `select floor(extract(epoch from paid_at) / 86400)::int as day, sku as product, currency, count(*)::int as count,
  sum(amount)::text as revenue, (count(*) filter (where refunded))::int as refunded, (count(*) filter (where disputed))::int as disputed,
  sum(case when refunded or (disputed and not dispute_won) then amount * 0 else amount end)::text as "netRevenue"
from checkout_sessions where state = 'paid' and paid_at is not null
  and coalesce(paid_at, created_at) >= ${fromEpochMs('$1')} and coalesce(paid_at, created_at) < ${fromEpochMs('$2')}
group by 1, 2, 3 order by 1, 2, 3 nulls first`;
// Migration 23 indexes both key columns; the union lets each branch use its index.
const OF_KEY = `${SELECT} where s.id = (select session_id from licenses where standard_key = $1::text
  union all select session_id from licenses where plus_key = $1::text limit 1)`;
const OF_PAYMENT = `select id from checkout_sessions where payment_ref = $1::text limit 1`;
const LOCK = `select ${STANDING}, s.disputes from checkout_sessions s where s.id = $1::text for update`;
const SET_FLAGS = `update checkout_sessions set refunded = $2::boolean, disputed = $3::boolean, dispute_won = $4::boolean,
  override = $5::text, override_reason = $6::text, override_at = ${fromEpochMs('$7')}, disputes = $8::jsonb where id = $1::text`;
// Migration 19: refunds and disputes that came before their payment was known here.
const KEEP = `insert into payment_events_kept (payment_ref, flag, dispute, received_at) values ($1::text, $2::text, $3::text, ${fromEpochMs('$4')})
on conflict do nothing`;
const TAKE = `delete from payment_events_kept where payment_ref = $1::text returning flag, dispute`;
const OVERRIDE = `update checkout_sessions set override = $2::text, override_reason = $3::text, override_at = ${fromEpochMs('$4')}
where id = $1::text returning id`;
// The locking read waits for a racing upgrade and sees its key: only the first one stores (with its window).
const ADD_PLUS = `update licenses l set plus_key = coalesce(l.plus_key, $2::text),
  plus_updates_days = case when o.old is null then $3::int else l.plus_updates_days end
from (select session_id, plus_key as old from licenses where session_id = $1::text for update) o
where l.session_id = o.session_id
returning l.standard_key as standard, l.plus_key as plus, o.old is null as "mine"`;

async function getOrder(db: SqlSession, id: string): Promise<Order | null> {
  const row = (await db.query<Row>(GET, [id]))[0];
  return row ? orderOf(row) : null;
}

/** Creates the order store over a database. */
export function createSqlOrders(client: SqlClient): OrderStore {
  return {
    async recordPurchase(id, p, at) {
      await client.write(RECORD, [id, p.email, p.name, p.country, p.paymentRef, at, p.amount, p.currency]);
    },
    get: (id) => getOrder(client, id),
    async find(f) {
      if (f.session !== undefined) return (await client.query<Row>(`${GET} limit $2::int`, [f.session, f.limit])).map(orderOf);
      if (f.email === undefined && f.name === undefined) return (await client.query<Row>(PAID, [f.limit])).map(orderOf);
      const params: SqlValue[] = [];
      const where = [`s.state = 'paid'`];
      for (const [value, condition] of [[f.email, BY_EMAIL], [f.name, BY_NAME]] as const) {
        if (value === undefined) continue;
        params.push(value);
        where.push(condition.replace('$N', `$${params.length}`));
      }
      const rows = await client.query<Row>(`${SELECT} where ${where.join(' and ')} ${newest(`$${params.length + 1}`)}`, [...params, f.limit]);
      return rows.map(orderOf);
    },
    inPeriod: async ({ from, until, after, limit }) =>
      (await client.query<Row>(IN_PERIOD, [from, until, after?.at ?? null, after?.session ?? null, limit])).map(orderOf),
    countByDay: (fromDay, toDay) => client.query<OrderCount>(COUNT_BY_DAY, [fromDay * DAY_MS, (toDay + 1) * DAY_MS]),
    async ofLicenseKey(key) {
      const row = (await client.query<Row>(OF_KEY, [key]))[0];
      return row ? orderOf(row) : null;
    },
    async sessionOfPayment(ref) {
      return (await client.query<{ id: string }>(OF_PAYMENT, [ref]))[0]?.id ?? null;
    },
    flag: (id, flag, dispute) =>
      client.transaction(async (tx) => {
        const locked = (await tx.query<OrderStanding & { disputes: DisputeStates | string }>(LOCK, [id]))[0];
        if (!locked) return null;
        const { disputes: stored, ...before } = locked;
        const disputes = typeof stored === 'string' ? (JSON.parse(stored) as DisputeStates) : stored;
        const { standing: after, disputes: next } = withPaymentEvent(before, disputes, flag, dispute);
        if (after !== before || JSON.stringify(next) !== JSON.stringify(disputes)) {
          const values = [after.refunded, after.disputed, after.disputeWon, after.override, after.overrideReason, after.overrideAt];
          await tx.write(SET_FLAGS, [id, ...values, JSON.stringify(next)]);
        }
        return { before, order: (await getOrder(tx, id))! };
      }),
    async keepPaymentEvent(ref, event, at) {
      await client.write(KEEP, [ref, event.flag, event.dispute, at]);
    },
    takePaymentEvents: (ref) => client.write<KeptPaymentEvent>(TAKE, [ref]),
    // The standing before is read under the row's lock: of two racing overrides, the second sees the first's.
    override: (id, override: OrderOverride, reason, at) =>
      client.transaction(async (tx) => {
        const locked = (await tx.query<OrderStanding & { disputes: unknown }>(LOCK, [id]))[0];
        if (!locked) return null;
        const { disputes: _disputes, ...before } = locked;
        await tx.query(OVERRIDE, [id, override, reason, at]);
        return { before, order: (await getOrder(tx, id))! };
      }),
    async addPlusKey(id, key, windowDays = null): Promise<SavedLicenses | null> {
      const [row] = await client.write<LicenseKeys & { mine: boolean }>(ADD_PLUS, [id, key, windowDays]);
      return row ? { keys: { standard: row.standard, plus: row.plus }, stored: row.mine } : null;
    },
  };
}
