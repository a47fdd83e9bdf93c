/**
 * Append-only records (feedback, downloads) and the named secrets kept with the data.
 *
 * @module
 */
import type { BudgetRefusal, DownloadEvent, FeedbackBudget, FeedbackEntry, MaybePromise } from '../../core/ports.ts';
import { createBatcher, type BatcherOptions } from './batch.ts';
import type { SqlClient, SqlSession } from './client.ts';
import { refusalOf } from '../../core/budgets.ts';
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

/** The day's total row exists before it is locked (its lock orders the batches of every instance). */
const ENSURE_TOTAL = `insert into budget_spent (kind, day, client, amount) values ('feedback', $1::int, '', 0) on conflict do nothing`;
/**
 * The day's counts of the total ('' is among $2) and of the batch's clients, locked, the total first. One
 * `= any` on the key, so it reads those rows by the index, however many clients the day has.
 */
const LOCK_COUNTS = `select client, amount::float8 as amount from budget_spent
where kind = 'feedback' and day = $1::int and client = any($2::text[])
order by client collate "C" for update`;
/** The counts after the batch, as worked out under the locks. */
const SET_COUNTS = `insert into budget_spent (kind, day, client, amount)
select 'feedback', $1::int, c.client, c.amount from unnest($2::text[], $3::text[]::bigint[]) as c(client, amount)
on conflict (kind, day, client) do update set amount = excluded.amount`;

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
  db: SqlClient,
  options: BatcherOptions = {},
): (entry: FeedbackEntry, budget?: FeedbackBudget) => Promise<BudgetRefusal | null> {
  const write = createBatcher<Submission, BudgetRefusal | null>(
    async (batch) => {
      const limits = batch[0]!.budget;
      if (!limits) {
        await db.write(ADD_FEEDBACK_BATCH, [JSON.stringify(batch.map((s) => row(s.entry)))]);
        return batch.map(() => null);
      }
      return db.transaction((tx) => writeBudgeted(tx, batch, limits));
    },
    { ...options, batchKey: budgetKey },
  );
  return (entry, budget) => write({ entry, budget });
}

/**
 * A budgeted batch in one transaction: the day's counts are locked (the total first, so batches of every
 * instance run one after another), each submission is judged in arrival order by core/budgets.ts
 * refusalOf against the counts so far, and the admitted ones are inserted (with their events) and
 * counted. Four statements a batch whatever its size, each reading by the key; the rule lives once.
 */
async function writeBudgeted(tx: SqlSession, batch: readonly Submission[], limits: FeedbackBudget): Promise<(BudgetRefusal | null)[]> {
  const keys = ['', ...new Set(batch.map((s) => s.budget!.client))];
  await tx.query(ENSURE_TOTAL, [limits.day]);
  const held = new Map<string, number>();
  for (const r of await tx.query<{ client: string; amount: number }>(LOCK_COUNTS, [limits.day, keys])) held.set(r.client, Number(r.amount));
  let spent = held.get('') ?? 0;
  held.delete('');
  const admitted: Submission[] = [];
  const answers = batch.map((submission): BudgetRefusal | null => {
    const { client, bytes } = submission.budget!;
    const mine = held.get(client) ?? 0;
    const reason = refusalOf(limits, mine, spent, bytes);
    if (reason) return { reason, held: mine, spent };
    held.set(client, mine + bytes);
    spent += bytes;
    admitted.push(submission);
    return null;
  });
  if (admitted.length > 0) {
    await tx.query(ADD_FEEDBACK_BATCH, [JSON.stringify(admitted.map((s) => row(s.entry)))]);
    await tx.query(SET_COUNTS, [limits.day, ['', ...held.keys()], [spent, ...held.values()].map(String)]);
  }
  return answers;
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
