/**
 * Migration 18: the operator's numbers (GET /stats) count feedback by day over a range of days: with
 * feedback kept for good, a scan of the whole table grew with every entry ever received.
 *
 * @module
 */
import type { Migration } from './migration.ts';

export const feedbackByTime: Migration = {
  version: 18,
  name: 'feedback by time',
  sql: `
create index feedback_received_at on feedback (received_at);
`,
};
