/**
 * Migration 16: drops migration 11's function, which nothing calls any more (adapters/sql/records.ts judges).
 *
 * @module
 */
import type { Migration } from './migration.ts';

export const unusedBudgetFunction: Migration = {
  version: 16,
  name: 'unused budget function',
  sql: `
drop function add_feedback_budgeted(jsonb, integer, bigint, bigint, integer);
`,
};
