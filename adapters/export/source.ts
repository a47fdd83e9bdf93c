/**
 * What an operator export reads from a storage: the feedback and the download counts. Every storage
 * (memory, PGlite, Postgres) provides it, so `npm run export` works on each.
 *
 * @module
 */
import type { DownloadEvent, FeedbackEntry } from '../../core/ports/ports.ts';
import type { InboxEntry, InboxReads } from '../../core/ports/store-ports.ts';

/** Downloads of one UTC day with one source, platform and forced flag. */
export interface DownloadCount {
  /** The UTC day, YYYY-MM-DD. */
  day: string;
  source: string | null;
  platform: DownloadEvent['platform'];
  forced: boolean;
  count: number;
}

/** Read access for exports. */
export interface ExportSource {
  /** Every feedback entry with its id and handled time, oldest first, read in pages. */
  feedbackEntries(): AsyncIterable<InboxEntry>;
  /** Download counts per day, source, platform and forced flag, in that order. */
  downloadCounts(): Promise<DownloadCount[]>;
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The export of in-memory records (the same grouping and order as the SQL one).
 *
 * @param records The stored feedback and downloads, and the inbox that keeps the handled marks.
 */
export function memoryExportSource(records: {
  readonly feedback: readonly FeedbackEntry[];
  readonly downloads: readonly DownloadEvent[];
  readonly inbox: InboxReads;
}): ExportSource {
  return {
    async *feedbackEntries() {
      const newestFirst = await records.inbox.list({ limit: records.feedback.length });
      for (const entry of newestFirst.reverse()) yield entry;
    },
    async downloadCounts() {
      const groups = new Map<string, DownloadCount>();
      for (const d of records.downloads) {
        const day = new Date(d.at).toISOString().slice(0, 10);
        const id = JSON.stringify([day, d.source, d.platform, d.forced]);
        const group = groups.get(id);
        if (group) group.count++;
        else groups.set(id, { day, source: d.source, platform: d.platform, forced: d.forced, count: 1 });
      }
      // SQL orders nulls last and false before true; so does this.
      return [...groups.values()].sort(
        (a, b) =>
          compare(a.day, b.day) ||
          (a.source === b.source ? 0 : a.source === null ? 1 : b.source === null ? -1 : compare(a.source, b.source)) ||
          compare(a.platform, b.platform) ||
          Number(a.forced) - Number(b.forced),
      );
    },
  };
}
