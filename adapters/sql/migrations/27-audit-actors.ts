/**
 * Migration 27 (issue 33): who made each change of the audit trail, the name of the operator's token
 * (core/operator/named-tokens.ts). Rows written before stay null, like the changes no operator made (a
 * refund the provider reported, the halt rule's halt): the API answers null, the Audit page shows "—". The index serves GET /audit?actor=, newest first.
 *
 * @module
 */
import type { Migration } from './migration.ts';

export const auditActors: Migration = {
  version: 27,
  name: 'audit actors',
  sql: `
alter table audit add column actor text;
create index audit_by_actor on audit (actor, id desc) where actor is not null;
`,
};
