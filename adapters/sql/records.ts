/**
 * Append-only records (feedback, downloads) and the named secrets kept with the data.
 *
 * @module
 */
import type { DownloadEvent, FeedbackEntry, MaybePromise } from '../../core/ports.ts';
import { createBatcher, type BatcherOptions } from './batch.ts';
import type { SqlSession } from './client.ts';
import { fromEpochMs } from './time.ts';
import { feedbackEventParts } from '../../core/webhooks/events.ts';

/**
 * A batch of submissions as one JSON array, in arrival order: one statement and one commit for all. Each
 * row's id is drawn first, so that the same statement writes its feedback.received event (the body with
 * the id spliced in, core/webhooks) when an endpoint wants events: the event commits with the row.
 */
const ADD_FEEDBACK_BATCH = `
with input as (
  select e.x, e.ord, nextval(pg_get_serial_sequence('feedback', 'id')) as id
  from jsonb_array_elements($1::text::jsonb) with ordinality as e(x, ord)
), added as (
  insert into feedback (id, type, description, email, app_version, rating, received_at) overriding system value
  select i.id, i.x->>'type', i.x->>'description', i.x->>'email', i.x->>'app_version', (i.x->>'rating')::int,
    ${fromEpochMs(`(i.x->>'received_at')`)}
  from input i
  order by i.ord
)
select count(enqueue_event('feedback.received', (i.x->>'event_head') || i.id || (i.x->>'event_tail'), ${fromEpochMs(`(i.x->>'received_at')`)}))::int as events
from input i
where exists (select 1 from webhook_endpoints where enabled)`;

const RECORD_DOWNLOAD = `
insert into downloads (at, source, platform, forced) values (${fromEpochMs('$1')}, $2::text, $3::text, $4::boolean)`;

const GET_SECRET = `select value from secrets where name = $1::text`;
const ADD_SECRET = `insert into secrets (name, value) values ($1::text, $2::text) on conflict (name) do nothing returning value`;

/**
 * Creates the feedback writer, with group commit (batch.ts): submissions that arrive while a batch is
 * written go together in the next insert. Each promise resolves after its batch has committed.
 *
 * @param db Where to write.
 * @param options Batch size and statements at once (batch.ts).
 * @returns A function that stores one submission.
 */
export function createFeedbackWriter(db: SqlSession, options: BatcherOptions = {}): (entry: FeedbackEntry) => Promise<void> {
  return createBatcher<FeedbackEntry, void>(async (entries) => {
    const rows = entries.map((e) => {
      const [head, tail] = feedbackEventParts(e);
      return {
        type: e.type,
        description: e.description,
        email: e.email,
        app_version: e.appVersion,
        rating: e.rating,
        received_at: e.receivedAt,
        event_head: head,
        event_tail: tail,
      };
    });
    await db.write(ADD_FEEDBACK_BATCH, [JSON.stringify(rows)]);
    return entries.map(() => undefined);
  }, options);
}

/** Stores one installer redirect. */
export async function recordDownload(db: SqlSession, e: DownloadEvent): Promise<void> {
  await db.query(RECORD_DOWNLOAD, [e.at, e.source, e.platform, e.forced]);
}

/**
 * A named secret: the stored one, else `create()` stored now; when two instances create at once, the
 * first insert wins and both answer its value.
 */
export async function secret(db: SqlSession, name: string, create: () => MaybePromise<string>): Promise<string> {
  const read = async () => (await db.query<{ value: string }>(GET_SECRET, [name]))[0]?.value;
  const stored = await read();
  if (stored !== undefined) return stored;
  const inserted = (await db.query<{ value: string }>(ADD_SECRET, [name, await create()]))[0]?.value;
  const value = inserted ?? (await read());
  if (value === undefined) throw new Error(`secret ${name} vanished after a conflicting insert`);
  return value;
}
