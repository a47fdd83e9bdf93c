/**
 * Contract of this repository's storages only (not of `converter-site-api/storage-conformance`): feedback
 * and downloads are exported exactly (adapters/export/source.ts, what `npm run export` reads).
 */
import * as assert from 'uvu/assert';
import type { FeedbackEntry } from '../../../core/ports/ports.ts';
import type { InboxEntry } from '../../../core/ports/store-ports.ts';
import { type ContractSuite, current } from './context.ts';

const DAY = 24 * 60 * 60 * 1000;
const T0 = Date.UTC(2026, 10, 21, 23, 59, 59, 999);

export function exportSourceContract(test: ContractSuite): void {
  test('feedback comes back in order with every field, to the millisecond', async (context) => {
    const { storage } = current(context);
    const entries: FeedbackEntry[] = [
      { type: 'review', description: 'Great 👍 «ok»\nline two', email: 'a@example.com', appVersion: '2.4.1', rating: 5, receivedAt: T0 },
      { type: 'general', description: 'x', email: null, appVersion: null, rating: null, receivedAt: T0 + 1 },
      { type: 'bug_report', description: 'quote \' and " and \\', email: null, appVersion: '1.0', rating: 1, receivedAt: T0 + DAY },
    ];
    for (const entry of entries) await storage.intake.addFeedback(entry);
    const ids = (await storage.inbox.list({ limit: 10 })).map((e) => e.id).reverse();
    await storage.change((tx) => tx.inbox.setHandled(ids[1]!, true, T0 + 5));
    const read: InboxEntry[] = [];
    for await (const entry of storage.feedbackEntries()) read.push(entry);
    // The same id and handled time as the inbox (and so the Inbox page's CSV) shows.
    assert.equal(read, entries.map((entry, i) => ({ ...entry, id: ids[i], handledAt: i === 1 ? T0 + 5 : null })));
  });

  test('download counts are grouped by UTC day, source, platform and forced, in that order', async (context) => {
    const { storage } = current(context);
    const events = [
      { at: T0, source: 'home', platform: 'windows', forced: false },
      { at: T0 - 5, source: 'home', platform: 'windows', forced: false },
      { at: T0, source: null, platform: 'other', forced: true },
      { at: T0, source: 'blog', platform: 'other', forced: false },
      { at: T0 + 1, source: 'home', platform: 'windows', forced: false },
    ] as const;
    for (const event of events) await storage.intake.recordDownload(event);
    assert.equal(await storage.downloadCounts(), [
      { day: '2026-11-21', source: 'blog', platform: 'other', forced: false, count: 1 },
      { day: '2026-11-21', source: 'home', platform: 'windows', forced: false, count: 2 },
      { day: '2026-11-21', source: null, platform: 'other', forced: true, count: 1 },
      { day: '2026-11-22', source: 'home', platform: 'windows', forced: false, count: 1 },
    ]);
  });

  test('no records export as empty', async (context) => {
    const { storage } = current(context);
    const read: InboxEntry[] = [];
    for await (const entry of storage.feedbackEntries()) read.push(entry);
    assert.equal(read, []);
    assert.equal(await storage.downloadCounts(), []);
  });
}
