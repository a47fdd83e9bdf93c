/**
 * Background clean-up: rate-limit windows that have ended and checkout sessions that never paid. Each
 * pass deletes in small batches with SKIP LOCKED, so it never waits for (or blocks) live requests and
 * takes no table lock.
 *
 * @module
 */
import { UNPAID_SESSION_GRACE_MS } from '../../core/checkout-state.ts';
import type { Logger } from '../../core/ports.ts';
import type { SqlSession } from './client.ts';

const BATCH = 5000;

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

/** What one pass deleted. */
export interface RetentionReport {
  rateLimitWindows: number;
  checkoutSessions: number;
}

export { UNPAID_SESSION_GRACE_MS };

async function drain(db: SqlSession, text: string, params: readonly number[]): Promise<number> {
  let total = 0;
  for (;;) {
    const rows = await db.query<Record<string, never>>(`${text} returning 1`, params);
    total += rows.length;
    if (rows.length < BATCH) return total;
  }
}

/**
 * Runs one clean-up pass.
 *
 * @param db Where to clean.
 * @param graceMs How long unpaid sessions are kept after expiry.
 */
export async function runRetention(db: SqlSession, graceMs = UNPAID_SESSION_GRACE_MS): Promise<RetentionReport> {
  return {
    rateLimitWindows: await drain(db, EXPIRED_WINDOWS, []),
    checkoutSessions: await drain(db, UNPAID_SESSIONS, [graceMs]),
  };
}

/**
 * Runs `runRetention` every `intervalMs` in the background (the timer does not keep the process alive).
 * A failed pass is logged and retried at the next tick.
 *
 * @returns A function that stops it.
 */
export function scheduleRetention(db: SqlSession, logger: Logger, intervalMs = 60_000): () => void {
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    runRetention(db)
      .then(
        (report) => {
          if (report.rateLimitWindows + report.checkoutSessions > 0) logger.info('retention pass', { ...report });
        },
        (error: unknown) => logger.warn('retention pass failed; retrying later', { error: String(error) }),
      )
      .finally(() => (busy = false));
  }, intervalMs);
  timer.unref?.();
  return () => clearInterval(timer);
}
