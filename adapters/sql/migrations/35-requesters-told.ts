/**
 * Migration 35 (issue 46): the requesters told when their request shipped (core/mail/shipped-requests.ts):
 * one row per feedback entry told (the primary key: an entry is told once, whichever instance and however
 * often its release is pulled and restored), the addresses that asked for no more of these mails (one-click
 * unsubscribe, RFC 8058), the features whose requesters are not to be told, and the mail kind `shipped`.
 *
 * @module
 */
import type { Migration } from './migration.ts';

export const requestersTold: Migration = {
  version: 35,
  name: 'requesters told',
  sql: `
create table requesters_told (
  feedback_id bigint primary key,
  told_at timestamptz not null
);
create index requesters_told_at on requesters_told (told_at);
create table mail_unsubscribes (
  email text primary key,
  unsubscribed_at timestamptz not null
);
create table features_without_requester_mails (
  feature_id integer primary key
);
alter table mail_outbox drop constraint mail_outbox_kind_check;
alter table mail_outbox add constraint mail_outbox_kind_check check (kind in ('keys', 'upgrade', 'revoked', 'reinstated', 'resend', 'shipped'));
`,
};
