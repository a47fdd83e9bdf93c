/**
 * Checkout sessions and their license keys in SQL.
 *
 * @module
 */
import {
  type CheckoutSession,
  type CheckoutState,
  type KeyWindows,
  type LicenseKeys,
  LIFETIME_KEYS,
  type OpenCheckoutTotals,
  type SavedLicenses,
} from '../../core/ports/ports.ts';
import type { SqlSession } from './client.ts';
import { epochMs, fromEpochMs } from './time.ts';

const COLUMNS = `id, sku, channel, url, state, ${epochMs('created_at')} as "createdAt", ${epochMs('expires_at')} as "expiresAt"`;

const CREATE = `
insert into checkout_sessions (id, sku, channel, url, state, created_at, expires_at, owner)
values ($1::text, $2::text, $3::text, $4::text, $5::text, ${fromEpochMs('$6')}, ${fromEpochMs('$7')}, $8::text)`;

const OPEN = `
select ${epochMs('expires_at')} as "expiresAt" from checkout_sessions
where owner = $1::text and state = 'pending' and expires_at > ${fromEpochMs('$2')}
order by expires_at limit $3::int`;

/** Counted up to the limit through the partial index on unpaid sessions' expiry (migration 1). */
const OPEN_TOTALS = `
select count(*)::int as open, min(t.expires_at_ms) as "earliestExpiry" from (
  select ${epochMs('expires_at')} as expires_at_ms from checkout_sessions
  where state = 'pending' and expires_at > ${fromEpochMs('$1')}
  order by expires_at limit $2::int
) t`;

const GET = `select ${COLUMNS} from checkout_sessions where id = $1::text`;

/**
 * core/ports/checkout-state.ts's nextCheckoutState, in SQL: a final state never changes and processing never
 * goes back to pending. One UPDATE, so the row lock orders racing reports and each sees the newest state.
 */
const ADVANCE = `
update checkout_sessions set state = case
  when state in ('paid', 'expired', 'failed') then state
  when state = 'processing' and $2::text = 'pending' then state
  else $2::text
end
where id = $1::text
returning ${COLUMNS}`;

const SAVE_LICENSES = `
insert into licenses (session_id, standard_key, plus_key, standard_updates_days, plus_updates_days)
values ($1::text, $2::text, $3::text, $4::int, $5::int)
on conflict (session_id) do nothing
returning standard_key as standard, plus_key as plus`;

const GET_LICENSES = `select standard_key as standard, plus_key as plus from licenses where session_id = $1::text`;

/** Stores a new session with the client that opened it; a duplicate id is an error. */
export async function createCheckout(db: SqlSession, s: CheckoutSession, owner: string | null = null): Promise<void> {
  await db.write(CREATE, [s.id, s.sku, s.channel, s.url, s.state, s.createdAt, s.expiresAt, owner]);
}

/** The expiry times of an owner's open sessions, earliest first (by the partial index of migration 5). */
export async function openCheckouts(db: SqlSession, owner: string, now: number, limit: number): Promise<number[]> {
  return (await db.query<{ expiresAt: number }>(OPEN, [owner, now, limit])).map((row) => Number(row.expiresAt));
}

/** How many sessions of all owners are open (up to `limit`), and the earliest expiry among them. */
export async function openCheckoutTotals(db: SqlSession, now: number, limit: number): Promise<OpenCheckoutTotals> {
  const found = (await db.query<{ open: number; earliestExpiry: number | null }>(OPEN_TOTALS, [now, limit]))[0];
  const earliest = found?.earliestExpiry ?? null;
  return { open: Number(found?.open ?? 0), earliestExpiry: earliest === null ? null : Number(earliest) };
}

/** One session, or null. */
export async function getCheckout(db: SqlSession, id: string): Promise<CheckoutSession | null> {
  return (await db.query<CheckoutSession>(GET, [id]))[0] ?? null;
}

/** Moves a session to `state` where the state machine allows; the session afterwards, or null. */
export async function advanceCheckout(db: SqlSession, id: string, state: CheckoutState): Promise<CheckoutSession | null> {
  return (await db.query<CheckoutSession>(ADVANCE, [id, state]))[0] ?? null;
}

/**
 * Stores a session's keys and the windows they were sold with unless keys were stored before, then answers
 * the stored ones: the insert waits for a racing insert to commit, and the read that follows it (a new
 * statement) sees that winner.
 */
export async function saveLicenses(db: SqlSession, sessionId: string, keys: LicenseKeys, windows: KeyWindows = LIFETIME_KEYS): Promise<SavedLicenses> {
  const [inserted] = await db.query<LicenseKeys>(SAVE_LICENSES, [sessionId, keys.standard, keys.plus, windows.standard, windows.plus]);
  if (inserted) return { keys: inserted, stored: true };
  const stored = await getLicenses(db, sessionId);
  if (!stored) throw new Error(`licenses of session ${sessionId} vanished after a conflicting insert`);
  return { keys: stored, stored: false };
}

/** A session's stored keys, or null. */
export async function getLicenses(db: SqlSession, sessionId: string): Promise<LicenseKeys | null> {
  return (await db.query<LicenseKeys>(GET_LICENSES, [sessionId]))[0] ?? null;
}
