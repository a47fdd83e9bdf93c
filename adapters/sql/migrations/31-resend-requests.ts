/**
 * Migration 31 (issue 42): the resend requests. POST licenses/resend only records a row here (the same
 * single write whatever the address) and answers; the mail worker's resend step claims the rows with a
 * lease, looks up the address's orders, and writes the mail and deletes the row in one transaction, so a
 * request survives a process that dies after its 202 and its address is kept only until it is completed.
 *
 * @module
 */
import type { Migration } from './migration.ts';

export const resendRequests: Migration = {
  version: 31,
  name: 'resend requests',
  sql: `
create table resend_requests (
  id bigserial primary key,
  cause text not null unique,
  email text not null,
  requested_at timestamptz not null,
  due_at timestamptz not null,
  attempts int not null default 0
);
create index resend_requests_due on resend_requests (due_at, id);
`,
};
