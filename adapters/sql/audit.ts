/**
 * The operator's audit trail in PostgreSQL and PGlite. An entry is written in its change's own
 * transaction (`reported` in outbox.ts), so a change never commits without it. Pages are keyset pages by
 * id, newest first, with the filters in SQL.
 *
 * @module
 */
import type { AuditEntry, AuditRow, AuditStore } from '../../core/ports/store-ports.ts';
import type { SqlSession, SqlStatement } from './client.ts';
import { epochMs, fromEpochMs } from './time.ts';

const RECORD = `insert into audit (at, action, target, request_id, actor) values (${fromEpochMs('$1')}, $2::text, $3::text, $4::text, $5::text)`;

// left(...) = prefix and strpos(...) > 0 test the text as the memory storage's startsWith and includes do:
// no LIKE, so % and _ in a filter are plain characters.
const LIST_AUDIT = `select audit.id::float8 as id, ${epochMs('at')} as at, action, target, request_id as "requestId", actor from audit
where ($1::bigint is null or audit.id < $1::bigint)
  and ($2::text is null or actor = $2::text)
  and ($3::text is null or left(action, length($3::text)) = $3::text)
  and ($4::text is null or strpos(target, $4::text) > 0)
order by audit.id desc limit $5::int`;

/** The statement that writes one entry (in its change's transaction, or on its own). */
export function auditInsert(e: AuditEntry): SqlStatement {
  return { text: RECORD, params: [e.at, e.action, e.target, e.requestId, e.actor] };
}

/** The audit trail over a database. */
export function createSqlAuditStore(db: SqlSession): AuditStore {
  return {
    async record(entry) {
      const { text, params } = auditInsert(entry);
      await db.write(text, params);
    },
    list: (f) => db.query<AuditRow>(LIST_AUDIT, [f.before ?? null, f.actor ?? null, f.action ?? null, f.target ?? null, f.limit]),
  };
}
