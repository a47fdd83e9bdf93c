/**
 * The shipping records in PostgreSQL and PGlite (core/ports/shipping-store.ts): migrations 33 and 35.
 *
 * @module
 */
import type { ReachedEveryone, ShippingStore } from '../../core/ports/shipping-store.ts';
import type { SqlClient } from './client.ts';
import { epochMs, fromEpochMs } from './time.ts';

const LIST = `select version, ${epochMs('reached_at')} as at from releases_reached_everyone`;
// First insert wins: the update that changes nothing makes the row come back either way.
const RECORD = `insert into releases_reached_everyone (version, reached_at) values ($1::text, ${fromEpochMs('$2')})
on conflict (version) do update set version = excluded.version returning ${epochMs('reached_at')} as at`;

const TOLD = `select feedback_id::float8 as id from requesters_told order by feedback_id`;
// Told once: the primary key keeps a second instance's insert out; an unsubscribed address is never marked.
const MARK_TOLD = `insert into requesters_told (feedback_id, told_at)
select $1::bigint, ${fromEpochMs('$3')} where not exists (select 1 from mail_unsubscribes where email = lower($2::text))
on conflict (feedback_id) do nothing returning feedback_id`;
const TOLD_COUNT = `select count(*)::int as count from requesters_told where told_at >= ${fromEpochMs('$1')} and told_at < ${fromEpochMs('$2')}`;
const UNSUBSCRIBE = `insert into mail_unsubscribes (email, unsubscribed_at) values (lower($1::text), ${fromEpochMs('$2')}) on conflict (email) do nothing`;
const UNSUBSCRIBED = `select email from mail_unsubscribes order by email`;
const MAILS_OFF = `insert into features_without_requester_mails (feature_id) values ($1::int) on conflict do nothing`;
const MAILS_ON = `delete from features_without_requester_mails where feature_id = $1::int`;
const LIST_OFF = `select feature_id as id from features_without_requester_mails order by feature_id`;

/** Creates the shipping store over a database. */
export function createSqlShipping(db: SqlClient): ShippingStore {
  return {
    reachedEveryone: () => db.query<ReachedEveryone>(LIST),
    async recordReachedEveryone(version, at) {
      const [row] = await db.write<{ at: number }>(RECORD, [version, at]);
      return row!.at;
    },
    told: async () => (await db.query<{ id: number }>(TOLD)).map((row) => row.id),
    markTold: async (feedbackId, email, at) => (await db.write(MARK_TOLD, [feedbackId, email, at])).length === 1,
    toldCount: async (from, to) => (await db.query<{ count: number }>(TOLD_COUNT, [from, to]))[0]?.count ?? 0,
    async unsubscribe(email, at) {
      await db.write(UNSUBSCRIBE, [email, at]);
    },
    unsubscribed: async () => (await db.query<{ email: string }>(UNSUBSCRIBED)).map((row) => row.email),
    async setFeatureMails(featureId, enabled) {
      await db.write(enabled ? MAILS_ON : MAILS_OFF, [featureId]);
    },
    mailsOff: async () => (await db.query<{ id: number }>(LIST_OFF)).map((row) => row.id),
  };
}
