/**
 * The mail outbox in PostgreSQL and PGlite (migration 26): one row per cause (a unique key, so a second
 * write of the same cause is ignored), claimed with `for update skip locked` and a lease, so several
 * instances on one database never send one message at once.
 *
 * @module
 */
import type { ClaimedResendRequest, MailDraft, MailStore, StoredMail } from '../../core/ports/mail.ts';
import type { SqlClient, SqlSession } from './client.ts';
import { epochMs, fromEpochMs } from './time.ts';

/** The columns of a StoredMail, of the table named `m`. */
const MAIL = `m.id::int as id, m.cause, m.kind, m.session_id as session, m.recipient as "to", m.subject, m.text_body as text,
  m.html_body as html, m.state, m.attempts, ${epochMs('m.created_at')} as "createdAt", ${epochMs('m.next_attempt_at')} as "nextAttemptAt",
  ${epochMs('m.last_attempt_at')} as "lastAttemptAt", m.last_error as "lastError", ${epochMs('m.sent_at')} as "sentAt",
  ${epochMs('m.retried_at')} as "retriedAt"`;

const ENQUEUE = `
insert into mail_outbox (cause, kind, session_id, recipient, subject, text_body, html_body, created_at, next_attempt_at)
values ($1::text, $2::text, $3::text, $4::text, $5::text, $6::text, $7::text, ${fromEpochMs('$8')}, ${fromEpochMs('$8')})
on conflict (cause) do nothing returning id`;

const CLAIM = `
with due as (
  select id from mail_outbox where state = 'pending' and next_attempt_at <= ${fromEpochMs('$1')}
  order by next_attempt_at, id limit $3::int for update skip locked
)
update mail_outbox m set next_attempt_at = ${fromEpochMs('$2')} from due where m.id = due.id
returning ${MAIL}`;

const RECORD_ATTEMPT = `
update mail_outbox set
  attempts = attempts + 1,
  last_attempt_at = ${fromEpochMs('$2')},
  last_error = $3::text,
  state = case when $4::boolean then 'sent' when $5::float8 is null then 'failed' else 'pending' end,
  sent_at = case when $4::boolean then ${fromEpochMs('$2')} else null end,
  next_attempt_at = ${fromEpochMs('$5')}
where id = $1::bigint`;

const LIST = `select ${MAIL} from mail_outbox m where ($1::text is null or m.session_id = $1::text)
  and ($3::text is null or m.state = $3::text) order by m.id desc limit $2::int`;

const GET = `select ${MAIL} from mail_outbox m where m.id = $1::bigint`;

const RETRY_FAILED = `
update mail_outbox m set state = 'pending', next_attempt_at = ${fromEpochMs('$2')}, retried_at = ${fromEpochMs('$2')}
where m.id = $1::bigint and m.state = 'failed' and (m.retried_at is null or m.retried_at <= ${fromEpochMs('$3')})
returning ${MAIL}`;

const COUNTS = `select count(*) filter (where state = 'sent')::int as sent, count(*) filter (where state = 'failed')::int as failed,
  count(*) filter (where state = 'pending')::int as pending
from mail_outbox where created_at >= ${fromEpochMs('$1')} and created_at < ${fromEpochMs('$2')}`;

const REQUEST_RESEND = `
insert into resend_requests (cause, email, requested_at, due_at) values ($1::text, $2::text, ${fromEpochMs('$3')}, ${fromEpochMs('$3')})`;

const CLAIM_RESEND = `
with due as (
  select id from resend_requests where due_at <= ${fromEpochMs('$1')} order by due_at, id limit $3::int for update skip locked
)
update resend_requests r set due_at = ${fromEpochMs('$2')}, attempts = r.attempts + 1 from due where r.id = due.id
returning r.id::int as id, r.cause, r.email, ${epochMs('r.requested_at')} as "requestedAt", r.attempts - 1 as attempts`;

const DELETE_RESEND = `delete from resend_requests where id = $1::bigint returning id`;

/** Writes one message inside the caller's statement or transaction (`db`); whether it was new. */
export async function enqueueMail(db: SqlSession, mail: MailDraft, at: number): Promise<boolean> {
  const rows = await db.query(ENQUEUE, [mail.cause, mail.kind, mail.session, mail.to, mail.subject, mail.text, mail.html, at]);
  return rows.length === 1;
}

/** Creates the mail outbox over a database. */
export function createSqlMail(db: SqlClient): MailStore {
  return {
    async enqueue(mail, at) {
      const rows = await db.write(ENQUEUE, [mail.cause, mail.kind, mail.session, mail.to, mail.subject, mail.text, mail.html, at]);
      return rows.length === 1;
    },
    claimDue: (now, leaseMs, limit) => db.write<StoredMail>(CLAIM, [now, now + leaseMs, limit]),
    async recordAttempt(id, a) {
      await db.write(RECORD_ATTEMPT, [id, a.at, a.error, a.sent, a.nextAttemptAt]);
    },
    list: ({ session, state, limit }) => db.query<StoredMail>(LIST, [session ?? null, limit, state ?? null]),
    async get(id) {
      const [mail] = await db.query<StoredMail>(GET, [id]);
      return mail ?? null;
    },
    async retryFailed(id, at, notSince) {
      const [mail] = await db.write<StoredMail>(RETRY_FAILED, [id, at, notSince]);
      return mail ?? null;
    },
    async counts(from, to) {
      const row = (await db.query<{ sent: number; failed: number; pending: number }>(COUNTS, [from, to]))[0];
      return { sent: Number(row?.sent ?? 0), failed: Number(row?.failed ?? 0), pending: Number(row?.pending ?? 0) };
    },
    async requestResend(request, at) {
      await db.write(REQUEST_RESEND, [request.cause, request.email, at]);
    },
    async claimResendRequests(now, leaseMs, limit) {
      const rows = await db.write<ClaimedResendRequest>(CLAIM_RESEND, [now, now + leaseMs, limit]);
      // The update's returning clause keeps no order.
      return rows.map((r) => ({ ...r, attempts: Number(r.attempts) })).sort((a, b) => a.id - b.id);
    },
    async completeResendRequest(id, mail, at) {
      await db.transaction(async (tx) => {
        // Deleted first: of two steps completing one request (a lease that ran out), the second writes nothing.
        const deleted = await tx.query(DELETE_RESEND, [id]);
        if (deleted.length === 1 && mail) await enqueueMail(tx, mail, at);
      });
    },
  };
}
