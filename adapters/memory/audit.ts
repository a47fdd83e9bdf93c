/**
 * The operator's audit trail in memory, newest last; lost on restart like the rest. A change's entry is
 * written in the same step as the change (`reportTo` in outbox.ts). Ids count from 1 in writing order, as
 * the SQL table's identity does.
 *
 * @module
 */
import type { AuditFilter, AuditRow, AuditStore } from '../../core/ports/store-ports.ts';
import { addRecord, type MemoryFace } from './undo.ts';

/** Whether a row is one the filter asks for (the same tests as the SQL storage's query). */
function matches(row: AuditRow, filter: AuditFilter): boolean {
  return (
    (filter.before === undefined || row.id < filter.before) &&
    (filter.actor === undefined || row.actor === filter.actor) &&
    (filter.action === undefined || row.action.startsWith(filter.action)) &&
    (filter.target === undefined || row.target.includes(filter.target))
  );
}

export function createMemoryAuditStore(): MemoryFace<AuditStore> {
  const rows: AuditRow[] = [];
  return (undo) => ({
    async record(entry) {
      addRecord(rows, { ...entry, id: rows.length + 1 }, 'last', undo);
    },
    async list(filter) {
      const found: AuditRow[] = [];
      for (let i = rows.length - 1; i >= 0 && found.length < filter.limit; i--) if (matches(rows[i]!, filter)) found.push({ ...rows[i]! });
      return found;
    },
  });
}
