/**
 * The feedback inbox in PostgreSQL and PGlite: keyset pages by id, newest first, with the filters in SQL.
 *
 * @module
 */
import type { FeedbackInbox, InboxEntry } from '../../core/operator/inbox.ts';
import type { FeedbackCount } from '../../core/ports/store-ports.ts';
import { DAY_MS } from '../../core/budgets/budgets.ts';
import type { SqlSession } from './client.ts';
import { epochMs, fromEpochMs } from './time.ts';

const COLUMNS = `id::float8 as id, type, description, email, app_version as "appVersion", rating,
  ${epochMs('received_at')} as "receivedAt", ${epochMs('handled_at')} as "handledAt"`;

// Ordered by the column, not by the float8 alias of the same name: a sort on the alias cannot use the
// primary key, so each page was a sort of the whole table (423 ms a page on a million rows).
const LIST = `select ${COLUMNS} from feedback
where ($1::text is null or type = $1::text)
  and ($2::int is null or rating = $2::int)
  and ($3::float8 is null or received_at >= ${fromEpochMs('$3')})
  and ($4::boolean is null or (handled_at is not null) = $4::boolean)
  and ($5::bigint is null or feedback.id < $5::bigint)
order by feedback.id desc limit $6::int`;

// Handled once keeps its first time; unhandled clears it.
const SET_HANDLED = `update feedback set handled_at = case when $2::boolean then coalesce(handled_at, ${fromEpochMs('$3')}) else null end
where id = $1::bigint returning ${COLUMNS}`;

const COUNT_BY_DAY = `
select floor(extract(epoch from received_at) / 86400)::int as day, type, rating, count(*)::int as count
from feedback
where received_at >= ${fromEpochMs('$1')} and received_at < ${fromEpochMs('$2')}
group by 1, 2, 3 order by 1, 2, 3 nulls first`;

/** Creates the inbox over a database. */
export function createSqlInbox(db: SqlSession): FeedbackInbox {
  return {
    countByDay: (fromDay, toDay) => db.query<FeedbackCount>(COUNT_BY_DAY, [fromDay * DAY_MS, (toDay + 1) * DAY_MS]),
    list: (f) => db.query<InboxEntry>(LIST, [f.type ?? null, f.rating ?? null, f.since ?? null, f.handled ?? null, f.before ?? null, f.limit]),
    async setHandled(id, handled, at) {
      return (await db.write<InboxEntry>(SET_HANDLED, [id, handled, at]))[0] ?? null;
    },
  };
}
