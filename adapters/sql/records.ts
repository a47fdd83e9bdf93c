/**
 * Append-only records (feedback, downloads) and the named secrets kept with the data.
 *
 * @module
 */
import type { BudgetRefusal, DownloadEvent, FeedbackBudget, FeedbackEntry, MaybePromise } from '../../core/ports/ports.ts';
import { type BatcherOptions, createBatcher } from './batch.ts';
import type { SqlClient, SqlSession } from './client.ts';
import type { EndpointsKnown } from './outbox.ts';
import { DayLedger } from '../../core/budgets/budgets.ts';
import { fromEpochMs, iso } from './time.ts';

/**
 * The feedback.received body (core/webhooks/events.ts feedbackReceived, eventBody) of a stored row `r`,
 * byte for byte as memory storage's JSON.stringify writes it: to_json escapes a text as JSON.stringify
 * does, and both times are Date#toISOString's form. Built in SQL so that a batch sends each text once.
 */
const feedbackEventBody = (r: string) =>
  `'{"type":"feedback.received","timestamp":"' || ${iso(`${r}.received_at`)}
  || '","data":{"id":' || ${r}.id || ',"type":' || to_json(${r}.type)::text || ',"description":' || to_json(${r}.description)::text
  || ',"email":' || coalesce(to_json(${r}.email)::text, 'null') || ',"appVersion":' || coalesce(to_json(${r}.app_version)::text, 'null')
  || ',"rating":' || coalesce(${r}.rating::text, 'null') || ',"receivedAt":"' || ${iso(`${r}.received_at`)} || '"}}'`;

/** A batch of submissions ($1, one JSON array) inserted in arrival order: one statement and one commit for all. */
const INSERT_ROWS = `insert into feedback (type, description, email, app_version, rating, received_at)
select e.x->>'type', e.x->>'description', e.x->>'email', e.x->>'app_version', (e.x->>'rating')::int,
  ${fromEpochMs(`(e.x->>'received_at')`)}
from jsonb_array_elements($1::text::jsonb) with ordinality as e(x, ord)
order by e.ord`;

/**
 * The counts of a budgeted batch after it ($2 the day, $3 the clients, '' for the total, $4 their
 * amounts), written by the batch's own statement so that they commit with the rows.
 */
const SET_COUNTS = `insert into budget_spent (kind, day, client, amount)
select 'feedback', $2::int, c.client, c.amount from unnest($3::text[], $4::text[]::bigint[]) as c(client, amount)
on conflict (kind, day, client) do update set amount = excluded.amount`;

/**
 * The batch with each row's feedback.received event when an endpoint wants events, so that the event
 * commits with the row (core/webhooks); with none, no body is built. With `counts`, SET_COUNTS too.
 */
const addFeedback = (counts: boolean) => `
with ${counts ? `counts as (${SET_COUNTS}), ` : ''}added as (
  ${INSERT_ROWS}
  returning id, type, description, email, app_version, rating, received_at
)
select count(enqueue_event('feedback.received', ${feedbackEventBody('a')}, a.received_at))::int as events
from added a
where exists (select 1 from webhook_endpoints where enabled)`;

/** The same when no endpoint is enabled, as an exclusive storage knows (`EndpointsKnown`): the plain insert. */
const addFeedbackQuietly = (counts: boolean) => `${counts ? `with counts as (${SET_COUNTS}) ` : ''}${INSERT_ROWS}`;

/** The statements, by whether an endpoint may want events and whether counts come along. */
const ADD_FEEDBACK = {
  events: { plain: addFeedback(false), counted: addFeedback(true) },
  quiet: { plain: addFeedbackQuietly(false), counted: addFeedbackQuietly(true) },
};

/** The day's total row, made by the day's first batch so that every batch locks it first. */
const ENSURE_TOTAL = `insert into budget_spent (kind, day, client, amount) values ('feedback', $1::int, '', 0) on conflict do nothing`;
/** The day's total as stored (an exclusive storage's starting point). */
const READ_TOTAL = `select amount::float8 as amount from budget_spent where kind = 'feedback' and day = $1::int and client = ''`;
/**
 * The day's total, locked: every budgeted batch of every instance takes this lock first and keeps it
 * until its commit, so batches are judged one after another. Nothing else writes the day's counts.
 */
const LOCK_TOTAL = `${READ_TOTAL} for update`;
/**
 * The day's counts of the batch's clients ($2), each read by the whole primary key (the subquery's
 * `limit` keeps it a lookup per key whatever the statistics say: a plan that scans the day's rows costs
 * a batch a read of every client of the day). Sent after LOCK_TOTAL in the same transaction, so its
 * snapshot, taken when the lock is held, sees every count committed before.
 */
const READ_COUNTS = `select k.client, b.amount::float8 as amount from unnest($2::text[]) as k(client)
cross join lateral (
  select amount from budget_spent where kind = 'feedback' and day = $1::int and client = k.client limit 1
) b`;

const RECORD_DOWNLOAD = `
insert into downloads (at, source, platform, forced) values (${fromEpochMs('$1')}, $2::text, $3::text, $4::boolean)`;

const GET_SECRET = `select value from secrets where name = $1::text`;
const ADD_SECRET = `insert into secrets (name, value) values ($1::text, $2::text) on conflict (name) do nothing returning value`;

/** One submission and its budget, as the writer queues it. */
interface Submission {
  entry: FeedbackEntry;
  budget: FeedbackBudget | undefined;
}

/** One submission as the statement reads it. */
const row = (e: FeedbackEntry) => ({
  type: e.type,
  description: e.description,
  email: e.email,
  app_version: e.appVersion,
  rating: e.rating,
  received_at: e.receivedAt,
});

/** Submissions go together when they have the same day and limits, or none. */
const budgetKey = ({ budget: b }: Submission): string => (b ? `${b.day}/${b.perClient}/${b.total}/${b.sharePercent}` : '');

/** Where a feedback writer counts budgets. */
export type FeedbackCounting =
  /**
   * This process is the database's only client (PGlite): it counts each client in memory by its key,
   * keeps the day's total with the rows, and knows whether an endpoint wants events.
   */
  | { exclusive: EndpointsKnown }
  /** Instances share the counts: each client's is stored under `hashClient` of its key, never the key. */
  | { hashClient: (key: string) => Promise<string> };

/**
 * Creates the feedback writer, with group commit (batch.ts): submissions that arrive while a batch is
 * written go together in the next statement. Budgeted ones are judged in arrival order against the day's
 * committed counts (`writeBudgeted`), or against an exclusive storage's own (`writeExclusive`). Each
 * promise resolves after its batch has committed: null when stored, the refusal otherwise.
 *
 * @param db Where to write.
 * @param options Batch size and statements at once (batch.ts).
 * @param counting Where budgets are counted.
 * @returns A function that stores one submission, within its budget when given one.
 */
export function createFeedbackWriter(
  db: SqlClient,
  options: BatcherOptions,
  counting: FeedbackCounting,
): (entry: FeedbackEntry, budget?: FeedbackBudget) => Promise<BudgetRefusal | null> {
  // An exclusive storage's own counts; a shared one reads the stored counts for each batch.
  const ledger = 'exclusive' in counting ? new DayLedger() : null;
  const write = createBatcher<Submission, BudgetRefusal | null>(
    async (batch) => {
      const limits = batch[0]!.budget;
      if ('exclusive' in counting) return writeExclusive(db, counting.exclusive, ledger!, batch, limits);
      if (!limits) {
        await db.write(ADD_FEEDBACK.events.plain, [rowsOf(batch)]);
        return batch.map(() => null);
      }
      return writeBudgeted(db, await hashed(batch, counting.hashClient), limits);
    },
    { ...options, batchKey: budgetKey },
  );
  return (entry, budget) => write({ entry, budget });
}

/** The batch with each budget's client key replaced by its keyed hash, the form the shared counts keep. */
async function hashed(batch: readonly Submission[], hashClient: (key: string) => Promise<string>): Promise<Submission[]> {
  const clients = await Promise.all(batch.map((s) => hashClient(s.budget!.client)));
  return batch.map((s, i) => ({ entry: s.entry, budget: { ...s.budget!, client: clients[i]! } }));
}

const rowsOf = (batch: readonly Submission[]): string => JSON.stringify(batch.map((s) => row(s.entry)));

/**
 * A budgeted batch in one transaction of two round trips (`readThenWrite`): the day's total is locked
 * (so batches of every instance run one after another, each holding the lock for one round trip) and
 * the batch's clients' counts are read by a statement sent after the lock's, which therefore sees what
 * the batch before committed, a client's first row included; each submission is judged in arrival order
 * (`DayLedger`, the rule of core/budgets/budgets.ts) against the counts so far, and the admitted ones are
 * inserted (with their events) and counted by one statement sent with the commit. The day's first batch
 * makes the total's row first.
 */
async function writeBudgeted(db: SqlClient, batch: readonly Submission[], limits: FeedbackBudget): Promise<(BudgetRefusal | null)[]> {
  const clients = [...new Set(batch.map((s) => s.budget!.client))];
  const reads = [
    { text: LOCK_TOTAL, params: [limits.day] },
    { text: READ_COUNTS, params: [limits.day, clients] },
  ];
  for (let attempt = 0;; attempt++) {
    const judged = await db.readThenWrite(reads, ([total, counts]) => {
      if (total!.length === 0) return { result: null };
      const ledger = new DayLedger();
      ledger.open(limits.day, Number(total![0]!['amount']), counts!.map((r) => [r['client'] as string, Number(r['amount'])]));
      const answers = batch.map((s) => ledger.take(s.budget!));
      const admitted = batch.filter((_, i) => answers[i] === null);
      if (admitted.length === 0) return { result: answers };
      const held = [...ledger.held];
      const params = [rowsOf(admitted), limits.day, ['', ...held.map(([c]) => c)], [ledger.spent, ...held.map(([, a]) => a)].map(String)];
      return { result: answers, write: { text: ADD_FEEDBACK.events.counted, params } };
    });
    if (judged) return judged;
    if (attempt > 0) throw new Error(`the feedback total of day ${limits.day} is missing after it was made`);
    await db.write(ENSURE_TOTAL, [limits.day]);
  }
}

/**
 * A batch of an exclusive storage (PGlite): judged against the process's own counts (`DayLedger`,
 * started from the day's stored total), and the admitted ones inserted with the new total in one
 * statement, which writes events only when an endpoint is enabled; a failed write gives the counts back.
 * Per-client counts start again from zero after a restart, as rate limits do; the day's total does not.
 */
async function writeExclusive(
  db: SqlClient,
  endpoints: EndpointsKnown,
  ledger: DayLedger,
  batch: readonly Submission[],
  limits: FeedbackBudget | undefined,
): Promise<(BudgetRefusal | null)[]> {
  if (limits && limits.day > ledger.day) {
    const stored = await db.query<{ amount: number }>(READ_TOTAL, [limits.day]);
    if (limits.day > ledger.day) ledger.open(limits.day, Number(stored[0]?.amount ?? 0));
  }
  const answers = batch.map((s) => (s.budget ? ledger.take(s.budget) : null));
  const admitted = batch.filter((_, i) => answers[i] === null);
  if (admitted.length === 0) return answers;
  while (endpoints.now() === null) await endpoints.read();
  // Chosen and queued in one turn: an endpoint change forgets `now()` before it queues its statement.
  const statements = ADD_FEEDBACK[endpoints.now() ? 'events' : 'quiet'];
  try {
    if (limits) await db.write(statements.counted, [rowsOf(admitted), limits.day, [''], [String(ledger.spent)]]);
    else await db.write(statements.plain, [rowsOf(admitted)]);
  } catch (error) {
    for (const s of admitted) if (s.budget) ledger.giveBack(s.budget);
    throw error;
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
