/**
 * Append-only records (feedback, downloads) and the named secrets kept with the data.
 *
 * @module
 */
import type { BudgetRefusal, DownloadEvent, FeedbackBudget, FeedbackEntry, MaybePromise } from '../../core/ports.ts';
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

/** A batch of budgeted submissions: judged, stored and counted by migration 11's function. */
const ADD_BUDGETED_FEEDBACK_BATCH = `
select ord, refused, held::float8 as held, spent::float8 as spent
from add_feedback_budgeted($1::text::jsonb, $2::int, $3::bigint, $4::bigint, $5::int)
order by ord`;

const RECORD_DOWNLOAD = `
insert into downloads (at, source, platform, forced) values (${fromEpochMs('$1')}, $2::text, $3::text, $4::boolean)`;

const GET_SECRET = `select value from secrets where name = $1::text`;
const ADD_SECRET = `insert into secrets (name, value) values ($1::text, $2::text) on conflict (name) do nothing returning value`;

/** One submission and its budget, as the writer queues it. */
interface Submission {
  entry: FeedbackEntry;
  budget: FeedbackBudget | undefined;
}

/** One submission as the statements read it, with its feedback.received body around the id the database draws. */
const row = (e: FeedbackEntry) => {
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
};

/** Submissions go together when they have the same day and limits, or none. */
const budgetKey = ({ budget: b }: Submission): string => (b ? `${b.day}/${b.perClient}/${b.total}/${b.sharePercent}` : '');

/**
 * Creates the feedback writer, with group commit (batch.ts): submissions that arrive while a batch is
 * written go together in the next statement. Budgeted ones are judged in arrival order against the day's
 * committed counts by the same statement that stores them (migration 11). Each promise resolves after its
 * batch has committed: null when stored, the refusal otherwise.
 *
 * @param db Where to write.
 * @param options Batch size and statements at once (batch.ts).
 * @returns A function that stores one submission, within its budget when given one.
 */
export function createFeedbackWriter(
  db: SqlSession,
  options: BatcherOptions = {},
): (entry: FeedbackEntry, budget?: FeedbackBudget) => Promise<BudgetRefusal | null> {
  const write = createBatcher<Submission, BudgetRefusal | null>(
    async (batch) => {
      const limits = batch[0]!.budget;
      if (!limits) {
        await db.write(ADD_FEEDBACK_BATCH, [JSON.stringify(batch.map((s) => row(s.entry)))]);
        return batch.map(() => null);
      }
      const rows = batch.map(({ entry, budget }) => ({ ...row(entry), client: budget!.client, bytes: budget!.bytes }));
      const params = [JSON.stringify(rows), limits.day, limits.perClient, limits.total, limits.sharePercent];
      const judged = await db.write<{ refused: BudgetRefusal['reason'] | null; held: number; spent: number }>(ADD_BUDGETED_FEEDBACK_BATCH, params);
      return judged.map(({ refused, held, spent }) => (refused ? { reason: refused, held: Number(held), spent: Number(spent) } : null));
    },
    { ...options, batchKey: budgetKey },
  );
  return (entry, budget) => write({ entry, budget });
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
