/**
 * The operator's audit trail in memory, newest last; lost on restart like the rest. A change's entry is
 * written in the same step as the change (`reportTo` in outbox.ts).
 *
 * @module
 */
import type { AuditEntry, AuditStore } from '../../core/ports/store-ports.ts';

export function createMemoryAuditStore(): AuditStore {
  const entries: AuditEntry[] = [];
  return {
    async record(entry) {
      entries.push({ ...entry });
    },
    list: async (limit) => entries.slice(-limit).reverse().map((entry) => ({ ...entry })),
  };
}
