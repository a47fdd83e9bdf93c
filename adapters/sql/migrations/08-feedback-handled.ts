/**
 * Migration 8: feedback handled.
 *
 * The feedback inbox (core/operator/inbox.ts): when the operator marked an entry handled.
 *
 * @module
 */
import type { Migration } from './migration.ts';

export const feedbackHandled: Migration = {
  version: 8,
  name: 'feedback handled',
  sql: `
alter table feedback add column handled_at timestamptz;
`,
};
