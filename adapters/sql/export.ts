/**
 * The operator export in SQL: feedback read in keyset pages, download counts grouped by the database.
 *
 * @module
 */
import type { InboxEntry } from '../../core/ports/store-ports.ts';
import type { DownloadCount, ExportSource } from '../export/source.ts';
import type { SqlSession } from './client.ts';
import { epochMs } from './time.ts';

const PAGE = 1000;

// By the column (the primary key), not the float8 alias: see inbox.ts.
const FEEDBACK_PAGE = `
select id::float8 as id, type, description, email, app_version as "appVersion", rating::int as rating,
  ${epochMs('received_at')} as "receivedAt", ${epochMs('handled_at')} as "handledAt"
from feedback where feedback.id > $1::bigint order by feedback.id limit ${PAGE}`;

/** Byte order (collate "C") so the order is the same as the memory export's, whatever the database locale. */
const DOWNLOAD_COUNTS = `
select to_char(at at time zone 'UTC', 'YYYY-MM-DD') as day, source, platform, forced, count(*)::int as count
from downloads
group by 1, 2, 3, 4
order by day, source collate "C" nulls last, platform, forced`;

/**
 * Creates the export over a SQL database.
 *
 * @param db Where the records are.
 */
export function sqlExportSource(db: SqlSession): ExportSource {
  return {
    async *feedbackEntries() {
      let after = 0;
      for (;;) {
        const rows = await db.query<InboxEntry>(FEEDBACK_PAGE, [after]);
        for (const entry of rows) {
          after = entry.id;
          yield entry;
        }
        if (rows.length < PAGE) return;
      }
    },
    downloadCounts: () => db.query<DownloadCount>(DOWNLOAD_COUNTS),
  };
}
