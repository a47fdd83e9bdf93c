/**
 * The operator's audit trail in PostgreSQL and PGlite. An entry is written in its change's own
 * transaction (`reported` in outbox.ts), so a change never commits without it.
 *
 * @module
 */
import type { AuditEntry, AuditStore } from '../../core/ports/store-ports.ts';
import type { SqlSession, SqlStatement } from './client.ts';
import { epochMs, fromEpochMs } from './time.ts';

const RECORD = `insert into audit (at, action, target, request_id) values (${fromEpochMs('$1')}, $2::text, $3::text, $4::text)`;
const LIST_AUDIT = `select ${epochMs('at')} as at, action, target, request_id as "requestId" from audit order by id desc limit $1::int`;

/** The statement that writes one entry (in its change's transaction, or on its own). */
export function auditInsert(e: AuditEntry): SqlStatement {
  return { text: RECORD, params: [e.at, e.action, e.target, e.requestId] };
}

/** The audit trail over a database. */
export function createSqlAuditStore(db: SqlSession): AuditStore {
  return {
    async record(entry) {
      const { text, params } = auditInsert(entry);
      await db.write(text, params);
    },
    list: (limit) => db.query<AuditEntry>(LIST_AUDIT, [limit]),
  };
}
