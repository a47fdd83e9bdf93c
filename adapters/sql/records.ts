/**
 * Append-only records (feedback, downloads) and the named secrets kept with the data.
 *
 * @module
 */
import type { DownloadEvent, FeedbackEntry, MaybePromise } from '../../core/ports.ts';
import type { SqlSession } from './client.ts';
import { fromEpochMs } from './time.ts';

const ADD_FEEDBACK = `
insert into feedback (type, description, email, app_version, rating, received_at)
values ($1::text, $2::text, $3::text, $4::text, $5::int, ${fromEpochMs('$6')})`;

const RECORD_DOWNLOAD = `
insert into downloads (at, source, platform, forced) values (${fromEpochMs('$1')}, $2::text, $3::text, $4::boolean)`;

const GET_SECRET = `select value from secrets where name = $1::text`;
const ADD_SECRET = `insert into secrets (name, value) values ($1::text, $2::text) on conflict (name) do nothing returning value`;

/** Stores one feedback submission. */
export async function addFeedback(db: SqlSession, e: FeedbackEntry): Promise<void> {
  await db.query(ADD_FEEDBACK, [e.type, e.description, e.email, e.appVersion, e.rating, e.receivedAt]);
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
