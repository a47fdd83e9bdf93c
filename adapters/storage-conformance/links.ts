/**
 * Contract: feedback entries link to roadmap features, in a unit of work (`Storage.change`): a link change
 * commits with its event and audit entry, and one in a change that throws leaves nothing behind.
 */
import * as assert from './assert.ts';
import type { FeedbackEntry } from '../../core/ports/ports.ts';
import { recordChange } from '../../core/ports/change.ts';
import { type ContractSuite, current } from './context.ts';

const T0 = Date.UTC(2026, 10, 24, 9, 0, 0, 7);
const ENTRIES: FeedbackEntry[] = [
  { type: 'feature_request', description: 'Charts in .wk3', email: 'ann@example.com', appVersion: '2.4.1', rating: null, receivedAt: T0 },
  { type: 'feature_request', description: 'wk3 charts please', email: null, appVersion: null, rating: null, receivedAt: T0 + 1000 },
  { type: 'bug_report', description: 'Crash', email: 'bo@example.com', appVersion: null, rating: null, receivedAt: T0 + 2000 },
];

export function linksContract(test: ContractSuite): void {
  test('entries link to a feature, relink and unlink in changes; unknown ids are skipped; the event and audit entry commit with them', async (context) => {
    const { storage } = current(context);
    for (const entry of ENTRIES) await storage.intake.addFeedback(entry);
    const ids = (await storage.inbox.list({ limit: 10 })).map((e) => e.id).sort((a, b) => a - b);
    const [ann, anon, bo] = ids as [number, number, number];
    await storage.change((tx) =>
      tx.outbox.addEndpoint({
        url: 'http://127.0.0.1:9/hook',
        secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        events: [],
        format: 'standard',
        createdAt: T0,
      })
    );
    assert.equal(await storage.links.linksOf([bo, ann, bo + 1000]), [
      { feedbackId: ann, featureId: null },
      { feedbackId: bo, featureId: null },
    ], 'linksOf lists the entries that exist, in id order, unlinked as null: linksOf()');
    const audit = { at: T0 + 5000, action: 'feedback.linked', target: '2 entries to feature 3', requestId: 'req-1', actor: 'ada' };
    await storage.change(async (tx) => {
      await tx.links.setFeature([ann, anon, bo + 1000], 3);
      assert.equal(
        await tx.links.linksOf([ann, anon]),
        [{ feedbackId: ann, featureId: 3 }, { feedbackId: anon, featureId: 3 }],
        'a change reads its own links',
      );
      await recordChange(tx, { at: T0 + 5000, event: { type: 'feedback.linked', data: { featureId: 3, feedbackIds: [ann, anon] } }, audit });
    });
    await storage.change((tx) => tx.links.setFeature([bo], 4));
    assert.equal(await storage.links.linked(), [
      { feedbackId: ann, featureId: 3, email: 'ann@example.com' },
      { feedbackId: anon, featureId: 3, email: null },
      { feedbackId: bo, featureId: 4, email: 'bo@example.com' },
    ], 'entries link to a feature in changes; every linked entry in id order, with its email: linked()');
    await storage.change(async (tx) => {
      await tx.links.setFeature([anon], 4);
      await tx.links.setFeature([bo], null);
    });
    assert.equal(await storage.links.linksOf([ann, anon, bo]), [
      { feedbackId: ann, featureId: 3 },
      { feedbackId: anon, featureId: 4 },
      { feedbackId: bo, featureId: null },
    ], 'a relink and an unlink in a change: linksOf()');
    assert.equal(
      (await storage.audit.list({ limit: 10, action: 'feedback.' })).map(({ id: _id, ...entry }) => entry),
      [audit],
      'the audit entry commits with the links: audit.list()',
    );
    const events = await storage.outbox.claimDue(T0 + 10_000, 1000, 10);
    assert.equal(events.map((d) => JSON.parse(d.body)), [{
      type: 'feedback.linked',
      timestamp: new Date(T0 + 5000).toISOString(),
      data: { featureId: 3, feedbackIds: [ann, anon] },
    }], 'the event commits with the links: claimDue() bodies');
  });

  test("links set in a change that throws are undone, with the change's audit entry", async (context) => {
    const { storage } = current(context);
    for (const entry of ENTRIES) await storage.intake.addFeedback(entry);
    const ids = (await storage.inbox.list({ limit: 10 })).map((e) => e.id).sort((a, b) => a - b);
    await storage.change((tx) => tx.links.setFeature([ids[0]!], 2));
    const thrown = await storage
      .change(async (tx) => {
        await tx.links.setFeature(ids, 5);
        await recordChange(tx, { at: T0, audit: { at: T0, action: 'feedback.linked', target: 'x', requestId: 'r', actor: null } });
        throw new Error('refused after the writes');
      })
      .catch((error: unknown) => String(error));
    assert.is(thrown, 'Error: refused after the writes', "the change's error comes out as thrown");
    assert.equal(
      await storage.links.linked(),
      [{ feedbackId: ids[0]!, featureId: 2, email: 'ann@example.com' }],
      'links set in a change that throws are undone: linked()',
    );
    assert.equal(await storage.audit.list({ limit: 10 }), [], 'the audit entry of a change that throws is undone: audit.list()');
  });
}
