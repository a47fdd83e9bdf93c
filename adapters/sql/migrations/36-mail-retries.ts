/**
 * Migration 36 (issue 53): the operator sends a failed mail again, at most once an hour per mail
 * (core/operator/mail-retry.ts): when it was last sent again, and the failed mails found by state.
 *
 * @module
 */
import type { Migration } from './migration.ts';

export const mailRetries: Migration = {
  version: 36,
  name: 'mail retries',
  sql: `
alter table mail_outbox add column retried_at timestamptz;
comment on column mail_outbox.retried_at is 'when the operator last sent a failed mail again (at most once an hour)';
create index mail_outbox_failed on mail_outbox (id) where state = 'failed';
`,
};
