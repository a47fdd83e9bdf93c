/**
 * The feedback inbox over memory storage's feedback list: an entry's id is its position (from 1).
 *
 * @module
 */
import type { FeedbackInbox, InboxEntry } from '../../core/operator/inbox.ts';
import type { FeedbackEntry } from '../../core/ports/ports.ts';
import type { FeedbackCount, VersionFeedbackCount } from '../../core/ports/store-ports.ts';
import { dayOf } from '../../core/budgets/budgets.ts';
import { deleteKey, type MemoryFace, setKey } from './undo.ts';

/** Creates the inbox over the stored entries (in arrival order). */
export function createMemoryInbox(feedback: readonly FeedbackEntry[]): MemoryFace<FeedbackInbox> {
  const handledAt = new Map<number, number>();
  const entry = (id: number): InboxEntry => ({ ...feedback[id - 1]!, id, handledAt: handledAt.get(id) ?? null });
  return (undo) => ({
    async countByVersion(fromDay, toDay, versions) {
      const known = new Set(versions);
      const counts = new Map<string, VersionFeedbackCount>();
      for (const e of feedback) {
        const day = dayOf(e.receivedAt);
        if (day < fromDay || day > toDay || (e.type !== 'review' && e.type !== 'bug_report')) continue;
        const version = e.appVersion === null ? 'none' : known.has(e.appVersion) ? e.appVersion : 'other';
        const key = `${day}\u0000${version}\u0000${e.type}`;
        const found = counts.get(key) ?? { day, version, type: e.type, count: 0, ratingSum: 0, rated: 0 };
        found.count++;
        if (e.rating !== null) {
          found.ratingSum += e.rating;
          found.rated++;
        }
        counts.set(key, found);
      }
      return [...counts.values()].sort((a, b) => a.day - b.day || (a.version < b.version ? -1 : a.version > b.version ? 1 : 0) || a.type.localeCompare(b.type));
    },
    async countByDay(fromDay, toDay) {
      const counts = new Map<string, FeedbackCount>();
      for (const e of feedback) {
        const day = dayOf(e.receivedAt);
        if (day < fromDay || day > toDay) continue;
        const key = `${day}/${e.type}/${e.rating}`;
        const found = counts.get(key);
        if (found) found.count++;
        else counts.set(key, { day, type: e.type, rating: e.rating, count: 1 });
      }
      const order = (c: FeedbackCount) => [c.day, c.type, c.rating ?? 0] as const;
      return [...counts.values()].sort((a, b) => {
        const [x, y] = [order(a), order(b)];
        return x[0] - y[0] || x[1].localeCompare(y[1]) || x[2] - y[2];
      });
    },
    async list(f) {
      const search = f.search?.toLowerCase();
      const found: InboxEntry[] = [];
      for (let id = Math.min(feedback.length, (f.before ?? Infinity) - 1); id >= 1 && found.length < f.limit; id--) {
        const e = feedback[id - 1]!;
        if (f.type !== undefined && e.type !== f.type) continue;
        if (f.rating !== undefined && e.rating !== f.rating) continue;
        if (f.since !== undefined && e.receivedAt < f.since) continue;
        if (f.handled !== undefined && handledAt.has(id) !== f.handled) continue;
        if (search !== undefined && !e.description.toLowerCase().includes(search) && !e.email?.toLowerCase().includes(search)) continue;
        found.push(entry(id));
      }
      return found;
    },
    async setHandled(id, handled, at) {
      if (!Number.isSafeInteger(id) || id < 1 || id > feedback.length) return null;
      const changed = handledAt.has(id) !== handled;
      if (!handled) deleteKey(handledAt, id, undo);
      else if (changed) setKey(handledAt, id, at, undo);
      return { entry: entry(id), changed };
    },
    async markHandled(ids, at) {
      const listed = [...new Set(ids)].filter((id) => Number.isSafeInteger(id) && id >= 1 && id <= feedback.length).sort((a, b) => a - b);
      const marked = listed.filter((id) => !handledAt.has(id));
      for (const id of marked) setKey(handledAt, id, at, undo);
      return { marked, found: listed.length };
    },
  });
}
