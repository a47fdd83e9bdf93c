/**
 * Background clean-up: rate-limit windows that have ended, checkout sessions that never paid, outbound
 * events every delivery of which is done (delivered or given up) past their retention, and the day-keyed
 * rows of past days (budget counters, install sightings, install pings).
 *
 * A pass never blocks serving: it deletes in small batches with SKIP LOCKED (no table lock, never waits
 * for live requests), and gives the event loop a turn between two batches, which matters on PGlite,
 * whose statements run on the main thread. On PGlite, which has no autovacuum, the pass does its work:
 * it vacuums the tables it deleted from and any other whose dead rows pass autovacuum's threshold, so the
 * files stay as large as the live rows need, and analyzes those whose changed rows pass autoanalyze's, so
 * the planner has statistics (without them it sorted a whole 60,000-row inbox for each page of an export).
 *
 * @module
 */
import { UNPAID_SESSION_GRACE_MS } from '../../core/ports/checkout-state.ts';
import type { Logger } from '../../core/ports/ports.ts';
import type { SqlSession } from './client.ts';

/** Rows per delete: on PGlite about 15-20 ms of the main thread each. */
const BATCH = 1000;

const EXPIRED_WINDOWS = `
delete from rate_limits where key in (
  select key from rate_limits where reset_at < now() limit ${BATCH} for update skip locked
)`;

/**
 * Sessions that never paid are kept for a grace period after they expire, so a late status poll still
 * hears session_expired rather than unknown_session. Processing sessions stay: a payment may still land.
 */
const UNPAID_SESSIONS = `
delete from checkout_sessions where id in (
  select id from checkout_sessions
  where state in ('pending', 'expired', 'failed') and expires_at < now() - make_interval(secs => $1::float8 / 1000)
  limit ${BATCH} for update skip locked
)`;

/**
 * The rows of a day-keyed table (its `day` a UTC day number) of days before yesterday, by the database
 * clock (yesterday stays for clock skew), found by `key`, the table's primary key.
 */
const pastDays = (table: string, key: string) => `
delete from ${table} where (${key}) in (
  select ${key} from ${table}
  where day < floor(extract(epoch from now()) / 86400)::int - 1
  limit ${BATCH} for update skip locked
)`;

/** Budget counters of past days. */
const PAST_BUDGET_DAYS = pastDays('budget_spent', 'kind, day, client');

/** Install sightings of past days: the usage counts hold them (migration 30). */
const PAST_SIGHTINGS = pastDays('install_sightings', 'day, release, client_hash');

/** Install pings and the per-client tallies of past days: the install counts hold them (migration 40). */
const PAST_INSTALL_PINGS = pastDays('install_pings', 'day, release, install_hash');
const PAST_INSTALL_CLIENTS = pastDays('install_clients', 'day, release, client_hash');

/** How long an outbound event is kept once none of its deliveries is pending: 30 days (EVENT_RETENTION_DAYS). */
export const DEFAULT_EVENT_RETENTION_DAYS = 30;

/**
 * Outbound events older than the retention none of whose deliveries is pending (their deliveries go with
 * them): each feedback entry wrote about 17 KB that stayed for good once an endpoint listened. Migration
 * 20's indexes serve the age range and the cascade.
 */
const OLD_EVENTS = `
delete from outbound_events where id in (
  select e.id from outbound_events e
  where e.created_at < now() - make_interval(days => $1::int)
    and not exists (select 1 from webhook_deliveries d where d.event_id = e.id and d.state = 'pending')
  order by e.created_at
  limit ${BATCH} for update skip locked
)`;

/** What one pass deleted. */
export interface RetentionReport {
  rateLimitWindows: number;
  checkoutSessions: number;
  /** Rows of the storage budgets' daily counters (migration 11). */
  budgetCounters: number;
  /** Outbound events past their retention, with their deliveries. */
  outboundEvents: number;
  /** Install sightings of past days (migration 30). */
  installSightings: number;
  /** Rows of install pings and their per-client tallies of past days (migration 40). */
  installPings: number;
}

/** How a pass runs. */
export interface RetentionOptions {
  /** Days an outbound event is kept once its deliveries are done; DEFAULT_EVENT_RETENTION_DAYS by default. */
  eventRetentionDays?: number;
  /** Whether the pass vacuums and analyzes what autovacuum would (and what it deleted from): for PGlite, which has none. */
  vacuum?: boolean;
}

/** One event-loop turn (a timer, so pending I/O is served), on every runtime. */
const nextTurn = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

async function drain(db: SqlSession, text: string, params: readonly number[]): Promise<number> {
  let total = 0;
  for (;;) {
    const rows = await db.query<Record<string, never>>(`${text} returning 1`, params);
    total += rows.length;
    if (rows.length < BATCH) return total;
    await nextTurn();
  }
}

/**
 * PGlite reports its activity counters (pg_stat_user_tables) only when asked to: without this they read
 * 0 for good, and no table ever passed the rules below. The statement after it reads them current.
 */
const FLUSH_COUNTERS = 'select pg_stat_force_next_flush()';

/**
 * Autovacuum's rule, for a database that has none: the tables of this schema whose dead rows (deleted or
 * replaced: votes taken back, sessions that moved on, counters) pass 50 + 20% of their live rows.
 */
const BLOATED = `
select relname::text as name from pg_stat_user_tables
where schemaname = current_schema() and n_dead_tup > 50 + 0.2 * n_live_tup
order by relname`;

/**
 * Autoanalyze's rule: the tables whose rows inserted, updated or deleted since their last ANALYZE pass 50
 * + 10% of their live rows. A table never analyzed has no statistics, and the planner guesses (one row in
 * 200 for `handled_at is null`), which made each page of the inbox a sort of the whole table.
 */
const UNANALYZED = `
select relname::text as name from pg_stat_user_tables
where schemaname = current_schema() and n_mod_since_analyze > 50 + 0.1 * n_live_tup
order by relname`;

/** A table name from the catalogue that needs no quoting rules beyond double quotes. */
const PLAIN_NAME = /^[a-z_][a-z0-9_]*$/;

/**
 * Vacuums the tables the pass deleted from and those past autovacuum's threshold, then analyzes those past
 * autoanalyze's, one statement each (ANALYZE reads a sample of at most 30,000 rows, so each is bounded).
 */
async function vacuum(db: SqlSession, deletedFrom: readonly string[]): Promise<void> {
  const names = async (text: string) => {
    await db.query(FLUSH_COUNTERS);
    return (await db.query<{ name: string }>(text)).map((row) => row.name).filter((name) => PLAIN_NAME.test(name));
  };
  for (const table of new Set([...deletedFrom.filter((name) => PLAIN_NAME.test(name)), ...(await names(BLOATED))])) {
    await nextTurn();
    await db.exec(`vacuum "${table}"`);
  }
  for (const table of await names(UNANALYZED)) {
    await nextTurn();
    await db.exec(`analyze "${table}"`);
  }
}

/**
 * Runs one clean-up pass.
 *
 * @param db Where to clean.
 * @param options Vacuuming.
 */
export async function runRetention(db: SqlSession, options: RetentionOptions = {}): Promise<RetentionReport> {
  const rateLimitWindows = await drain(db, EXPIRED_WINDOWS, []);
  await nextTurn();
  const checkoutSessions = await drain(db, UNPAID_SESSIONS, [UNPAID_SESSION_GRACE_MS]);
  await nextTurn();
  const budgetCounters = await drain(db, PAST_BUDGET_DAYS, []);
  await nextTurn();
  const outboundEvents = await drain(db, OLD_EVENTS, [options.eventRetentionDays ?? DEFAULT_EVENT_RETENTION_DAYS]);
  await nextTurn();
  const installSightings = await drain(db, PAST_SIGHTINGS, []);
  await nextTurn();
  const pings = await drain(db, PAST_INSTALL_PINGS, []);
  await nextTurn();
  const pingClients = await drain(db, PAST_INSTALL_CLIENTS, []);
  if (options.vacuum) {
    await nextTurn();
    const deletedFrom = {
      rate_limits: rateLimitWindows,
      checkout_sessions: checkoutSessions,
      budget_spent: budgetCounters,
      outbound_events: outboundEvents,
      webhook_deliveries: outboundEvents,
      install_sightings: installSightings,
      install_pings: pings,
      install_clients: pingClients,
    };
    await vacuum(db, Object.entries(deletedFrom).flatMap(([table, rows]) => (rows > 0 ? [table] : [])));
  }
  return { rateLimitWindows, checkoutSessions, budgetCounters, outboundEvents, installSightings, installPings: pings + pingClients };
}

/**
 * Runs `runRetention` every `intervalMs` in the background (the timer does not keep the process alive).
 * A failed pass is logged and retried at the next tick.
 *
 * @returns A function that stops it.
 */
export function scheduleRetention(db: SqlSession, logger: Logger, options: RetentionOptions & { intervalMs?: number } = {}): () => void {
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    runRetention(db, options)
      .then(
        (report) => {
          if (Object.values(report).some((rows) => rows > 0)) logger.info('retention pass', { ...report });
        },
        (error: unknown) => logger.warn('retention pass failed; retrying later', { error: String(error) }),
      )
      .finally(() => (busy = false));
  }, options.intervalMs ?? 60_000);
  timer.unref?.();
  return () => clearInterval(timer);
}
