/**
 * Migration 7: audit trail.
 *
 * The operator's audit trail (core/operator): every change made through the operator API.
 *
 * @module
 */
import type { Migration } from './migration.ts';

export const auditTrail: Migration = {
  version: 7,
  name: 'audit trail',
  sql: `
create table audit (
  id bigint generated always as identity primary key,
  at timestamptz not null,
  action text not null,
  target text not null,
  request_id text not null
);
`,
};
