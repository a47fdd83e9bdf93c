/**
 * The feedback inbox in PostgreSQL and PGlite: keyset pages by id, newest first, with the filters in SQL.
 *
 * @module
 */
import type { FeedbackInbox, InboxEntry } from '../../core/operator/inbox.ts';
import type { FeedbackCount, HandledChange, VersionFeedbackCount } from '../../core/ports/store-ports.ts';
import { DAY_MS } from '../../core/budgets/budgets.ts';
import type { SqlClient } from './client.ts';
import { epochMs, fromEpochMs } from './time.ts';

const COLUMNS = `id::float8 as id, type, description, email, app_version as "appVersion", rating,
  ${epochMs('received_at')} as "receivedAt", ${epochMs('handled_at')} as "handledAt"`;

// Ordered by the column, not by the float8 alias of the same name: a sort on the alias cannot use the
// primary key, so each page was a sort of the whole table (423 ms a page on a million rows). The page's
// bound is one range condition on the key (no "is null or"), so that a generic plan (what a prepared
// statement may switch to after five runs) still starts each page at its bound instead of filtering every
// newer row again.
const LIST = `select ${COLUMNS} from feedback
where ($1::text is null or type = $1::text)
  and ($2::int is null or rating = $2::int)
  and ($3::float8 is null or received_at >= ${fromEpochMs('$3')})
  and ($4::boolean is null or (handled_at is not null) = $4::boolean)
  and feedback.id < coalesce($5::bigint, 9223372036854775807)
  and ($7::text is null or strpos(lower(description), lower($7::text)) > 0 or strpos(lower(coalesce(email, '')), lower($7::text)) > 0)
order by feedback.id desc limit $6::int`;

// Only entries not handled yet: a concurrent mark of the same entry is re-checked, so it is marked (and counted) once.
const MARK_LISTED = `update feedback set handled_at = ${fromEpochMs('$2')}
where id = any($1::text[]::bigint[]) and handled_at is null returning id::float8 as id`;
const COUNT_LISTED = `select count(*)::int as found from feedback where id = any($1::text[]::bigint[])`;

// Changes only an entry in the other state (so a handled one keeps its first time); the row is re-checked
// after a concurrent mark, so of two equal marks at once one changes it. No row: unchanged, or no entry.
const SET_HANDLED = `update feedback set handled_at = case when $2::boolean then ${fromEpochMs('$3')} else null end
where id = $1::bigint and (handled_at is not null) <> $2::boolean returning ${COLUMNS}`;

const ONE = `select ${COLUMNS} from feedback where id = $1::bigint`;

const COUNT_BY_DAY = `
select floor(extract(epoch from received_at) / 86400)::int as day, type, rating, count(*)::int as count
from feedback
where received_at >= ${fromEpochMs('$1')} and received_at < ${fromEpochMs('$2')}
group by 1, 2, 3 order by 1, 2, 3 nulls first`;

const COUNT_BY_VERSION = `
select floor(extract(epoch from received_at) / 86400)::int as day,
  case when app_version is null then 'none' when app_version = any($3::text[]) then app_version else 'other' end as version,
  type, count(*)::int as count, coalesce(sum(rating), 0)::int as "ratingSum", count(rating)::int as rated
from feedback
where received_at >= ${fromEpochMs('$1')} and received_at < ${fromEpochMs('$2')} and type in ('review', 'bug_report')
group by 1, 2, 3 order by 1, 2, 3`;

/** Creates the inbox over a database. */
export function createSqlInbox(db: SqlClient): FeedbackInbox {
  return {
    countByDay: (fromDay, toDay) => db.query<FeedbackCount>(COUNT_BY_DAY, [fromDay * DAY_MS, (toDay + 1) * DAY_MS]),
    countByVersion: (fromDay, toDay, versions) => db.query<VersionFeedbackCount>(COUNT_BY_VERSION, [fromDay * DAY_MS, (toDay + 1) * DAY_MS, [...versions]]),
    list: (f) =>
      db.query<InboxEntry>(LIST, [f.type ?? null, f.rating ?? null, f.since ?? null, f.handled ?? null, f.before ?? null, f.limit, f.search ?? null]),
    /** The mark; an entry already in that state is read. */
    async setHandled(id, handled, at): Promise<HandledChange | null> {
      const [changed] = await db.write<InboxEntry>(SET_HANDLED, [id, handled, at]);
      if (changed) return { entry: changed, changed: true };
      const [entry] = await db.query<InboxEntry>(ONE, [id]);
      return entry ? { entry, changed: false } : null;
    },
    async markHandled(ids, at) {
      const listed = ids.filter((id) => Number.isSafeInteger(id) && id >= 1).map(String);
      const marked = (await db.write<{ id: number }>(MARK_LISTED, [listed, at])).map((row) => Number(row.id)).sort((a, b) => a - b);
      const [count] = await db.query<{ found: number }>(COUNT_LISTED, [listed]);
      return { marked, found: count?.found ?? 0 };
    },
  };
}
