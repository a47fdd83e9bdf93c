/**
 * Contract: the feedback inbox lists newest first with every filter and keyset pages, and keeps the
 * handled mark (its first time), on every storage.
 */
import * as assert from './assert.ts';
import type { FeedbackEntry } from '../../core/ports/ports.ts';
import { type ContractSuite, current } from './context.ts';

const T0 = Date.UTC(2026, 10, 24, 9, 0, 0, 7);
const ENTRIES: FeedbackEntry[] = [
  { type: 'review', description: 'Great', email: 'a@example.com', appVersion: '2.4.1', rating: 5, receivedAt: T0 },
  { type: 'bug_report', description: 'Crash on .wk3', email: null, appVersion: null, rating: 1, receivedAt: T0 + 1000 },
  { type: 'review', description: 'Fine', email: null, appVersion: '2.4.1', rating: 4, receivedAt: T0 + 2000 },
  { type: 'feature_request', description: 'Quattro Pro', email: null, appVersion: null, rating: null, receivedAt: T0 + 3000 },
];

export function inboxContract(test: ContractSuite): void {
  test('the inbox lists newest first, by type, rating, time and handled mark, in keyset pages', async (context) => {
    const { storage } = current(context);
    for (const entry of ENTRIES) await storage.intake.addFeedback(entry);
    const all = await storage.inbox.list({ limit: 10 });
    assert.equal(all.map((e) => e.description), ['Quattro Pro', 'Fine', 'Crash on .wk3', 'Great'], 'the inbox lists newest first: list() descriptions');
    assert.equal(all[3], { ...ENTRIES[0], id: all[3]!.id, handledAt: null }, 'an entry is kept with every field, not handled: list()[3]');
    const ids = all.map((e) => e.id);
    assert.ok(ids[0]! > ids[1]! && ids[1]! > ids[2]! && ids[2]! > ids[3]!, 'ids grow with arrival');
    assert.equal(
      (await storage.inbox.list({ type: 'review', limit: 10 })).map((e) => e.description),
      ['Fine', 'Great'],
      'by type, newest first: list({ type }) descriptions',
    );
    assert.equal((await storage.inbox.list({ rating: 1, limit: 10 })).map((e) => e.description), ['Crash on .wk3'], 'by rating: list({ rating }) descriptions');
    assert.equal(
      (await storage.inbox.list({ since: T0 + 2000, limit: 10 })).map((e) => e.description),
      ['Quattro Pro', 'Fine'],
      'received at or after `since`: list({ since }) descriptions',
    );
    const page = await storage.inbox.list({ limit: 2 });
    assert.equal(
      (await storage.inbox.list({ limit: 2, before: page[1]!.id })).map((e) => e.description),
      ['Crash on .wk3', 'Great'],
      'a keyset page below `before`: list({ before }) descriptions',
    );
  });

  test('marking handled keeps its first time; unhandling clears it; each says whether it changed; an unknown id is null', async (context) => {
    const { storage } = current(context);
    for (const entry of ENTRIES) await storage.intake.addFeedback(entry);
    const [newest] = await storage.inbox.list({ limit: 1 });
    const mark = async (handled: boolean, at: number) => {
      const done = await storage.change((tx) => tx.inbox.setHandled(newest!.id, handled, at));
      return [done?.entry.handledAt, done?.changed];
    };
    assert.equal(await mark(true, T0 + 10), [T0 + 10, true], 'marking handled sets its time and says it changed: setHandled(true) [handledAt, changed]');
    assert.equal(
      await mark(true, T0 + 20),
      [T0 + 10, false],
      'marking handled again keeps its first time and changes nothing: setHandled(true) [handledAt, changed]',
    );
    assert.equal(
      (await storage.inbox.list({ handled: true, limit: 10 })).map((e) => e.description),
      ['Quattro Pro'],
      'handled entries only: list({ handled: true }) descriptions',
    );
    assert.equal((await storage.inbox.list({ handled: false, limit: 10 })).length, 3, 'unhandled entries only: list({ handled: false }) length');
    assert.equal(await mark(false, T0 + 30), [null, true], 'unhandling clears the time and says it changed: setHandled(false) [handledAt, changed]');
    assert.equal(await mark(false, T0 + 40), [null, false], 'unhandling again changes nothing: setHandled(false) [handledAt, changed]');
    assert.is(await storage.change((tx) => tx.inbox.setHandled(newest!.id + 1000, true, T0)), null, 'an unknown id is null: setHandled(true)');
    assert.is(await storage.change((tx) => tx.inbox.setHandled(newest!.id + 1000, false, T0)), null, 'an unknown id is null: setHandled(false)');
  });

  test('the inbox finds text in the description or the email, any case, with the other filters and pages', async (context) => {
    const { storage } = current(context);
    for (const entry of ENTRIES) await storage.intake.addFeedback(entry);
    await storage.intake.addFeedback({
      type: 'bug_report',
      description: 'Lotus 100% crash',
      email: 'Crash.Test@Example.com',
      appVersion: null,
      rating: 2,
      receivedAt: T0 + 4000,
    });
    const found = async (filter: Omit<Parameters<typeof storage.inbox.list>[0], 'limit'>, limit = 10) =>
      (await storage.inbox.list({ ...filter, limit })).map((e) => e.description);
    assert.equal(
      await found({ search: 'CRASH' }),
      ['Lotus 100% crash', 'Crash on .wk3'],
      'text in the description, any case, newest first: list({ search }) descriptions',
    );
    assert.equal(await found({ search: 'a@EXAMPLE' }), ['Great'], 'in the email');
    assert.equal(await found({ search: 'crash.test' }), ['Lotus 100% crash'], 'text in the email, any case: list({ search }) descriptions');
    assert.equal(await found({ search: '100%' }), ['Lotus 100% crash'], 'a percent sign is text');
    assert.equal(await found({ search: '%' }), ['Lotus 100% crash'], "a percent sign alone is text: list({ search: '%' }) descriptions");
    assert.equal(await found({ search: 'crash', rating: 1 }), ['Crash on .wk3'], 'with the other filters');
    const [newest] = await storage.inbox.list({ search: 'crash', limit: 1 });
    assert.equal(await found({ search: 'crash', before: newest!.id }), ['Crash on .wk3'], 'in pages');
    assert.equal(await found({ search: 'nothing like it' }), [], 'text found nowhere finds none: list({ search }) descriptions');
  });

  test('a bulk mark marks the listed entries not handled yet, once, and says which and how many exist', async (context) => {
    const { storage } = current(context);
    for (const entry of ENTRIES) await storage.intake.addFeedback(entry);
    const ids = (await storage.inbox.list({ limit: 10 })).map((e) => e.id).sort((a, b) => a - b);
    await storage.change((tx) => tx.inbox.setHandled(ids[1]!, true, T0 + 5));
    const batch = await storage.change((tx) => tx.inbox.markHandled([ids[3]!, ids[0]!, ids[1]!, ids[0]!, ids[3]! + 1000], T0 + 10));
    assert.equal(
      batch,
      { marked: [ids[0]!, ids[3]!], found: 3 },
      'a bulk mark marks the entries not handled yet, once each, in id order, and counts those that exist: markHandled()',
    );
    const handled = await storage.inbox.list({ handled: true, limit: 10 });
    assert.equal(handled.map((e) => [e.id, e.handledAt]), [[ids[3]!, T0 + 10], [ids[1]!, T0 + 5], [ids[0]!, T0 + 10]], 'the one handled before keeps its time');
    assert.equal(await storage.change((tx) => tx.inbox.markHandled([ids[0]!, ids[3]!], T0 + 20)), { marked: [], found: 2 }, 'a repeat marks none');
    assert.equal(
      await storage.change((tx) => tx.inbox.markHandled([ids[3]! + 1], T0 + 20)),
      { marked: [], found: 0 },
      'an unknown id is not found: markHandled()',
    );
  });

  test('marks in a change that throws are undone: the entries are as before', async (context) => {
    const { storage } = current(context);
    for (const entry of ENTRIES) await storage.intake.addFeedback(entry);
    const ids = (await storage.inbox.list({ limit: 10 })).map((e) => e.id).sort((a, b) => a - b);
    await storage.change((tx) => tx.inbox.setHandled(ids[0]!, true, T0 + 5));
    const before = await storage.inbox.list({ limit: 10 });
    const thrown = await storage
      .change(async (tx) => {
        assert.equal(await tx.inbox.markHandled(ids, T0 + 10), { marked: ids.slice(1), found: 4 }, 'a bulk mark in a change: markHandled()');
        assert.is((await tx.inbox.setHandled(ids[0]!, false, T0 + 10))?.changed, true, 'an unmark in a change: setHandled(false).changed');
        assert.equal((await tx.inbox.list({ handled: true, limit: 10 })).length, 3, 'a change reads its own marks');
        throw new Error('refused after the marks');
      })
      .catch((error: unknown) => String(error));
    assert.is(thrown, 'Error: refused after the marks', "the change's error comes out as thrown");
    assert.equal(await storage.inbox.list({ limit: 10 }), before, 'marks in a change that throws are undone: list()');
    assert.equal(await storage.change((tx) => tx.inbox.markHandled(ids, T0 + 20)), { marked: ids.slice(1), found: 4 }, 'the same marks commit afterwards');
  });
}
