/**
 * Migration 26 (issue 35): the mail outbox. One row per message, unique by its cause, so that a cause
 * (an order's fulfilment, a verdict change, a resend request) mails once whatever the retries and races;
 * the due index serves the worker's claim.
 *
 * @module
 */
import type { Migration } from './migration.ts';

export const mailOutbox: Migration = {
  version: 26,
  name: 'mail outbox',
  sql: `
create table mail_outbox (
  id bigserial primary key,
  cause text not null unique,
  kind text not null check (kind in ('keys', 'upgrade', 'revoked', 'reinstated', 'resend')),
  session_id text,
  recipient text not null,
  subject text not null,
  text_body text not null,
  html_body text not null,
  state text not null default 'pending' check (state in ('pending', 'sent', 'failed')),
  attempts int not null default 0,
  created_at timestamptz not null,
  next_attempt_at timestamptz,
  last_attempt_at timestamptz,
  last_error text,
  sent_at timestamptz
);
create index mail_outbox_due on mail_outbox (next_attempt_at) where state = 'pending';
create index mail_outbox_session on mail_outbox (session_id) where session_id is not null;
create index mail_outbox_created on mail_outbox (created_at);
`,
};
