/**
 * Contract: feedback entries link to roadmap features; a link change commits with its event and audit entry.
 */
import * as assert from './assert.ts';
import type { FeedbackEntry } from '../../core/ports/ports.ts';
import { current, type ContractSuite } from './context.ts';

const T0 = Date.UTC(2026, 10, 24, 9, 0, 0, 7);
const ENTRIES: FeedbackEntry[] = [
  { type: 'feature_request', description: 'Charts in .wk3', email: 'ann@example.com', appVersion: '2.4.1', rating: null, receivedAt: T0 },
  { type: 'feature_request', description: 'wk3 charts please', email: null, appVersion: null, rating: null, receivedAt: T0 + 1000 },
  { type: 'bug_report', description: 'Crash', email: 'bo@example.com', appVersion: null, rating: null, receivedAt: T0 + 2000 },
];

export function linksContract(test: ContractSuite): void {
  test('entries link to a feature, relink and unlink; unknown ids are skipped; the change writes its audit entry and event', async (context) => {
    const { storage } = current(context);
    for (const entry of ENTRIES) await storage.addFeedback(entry);
    const ids = (await storage.inbox.list({ limit: 10 })).map((e) => e.id).sort((a, b) => a - b);
    const [ann, anon, bo] = ids as [number, number, number];
    await storage.outbox.addEndpoint({ url: 'http://127.0.0.1:9/hook', secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', events: [], format: 'standard', createdAt: T0 });
    assert.equal(await storage.links.linksOf([bo, ann, bo + 1000]), [
      { feedbackId: ann, featureId: null },
      { feedbackId: bo, featureId: null },
    ]);
    const audit = { at: T0 + 5000, action: 'feedback.linked', target: '2 entries to feature 3', requestId: 'req-1', actor: 'ada' };
    await storage.links.setFeature([ann, anon, bo + 1000], 3, { event: { type: 'feedback.linked', data: { featureId: 3, feedbackIds: [ann, anon] } }, at: T0 + 5000, audit });
    await storage.links.setFeature([bo], 4, null);
    assert.equal(await storage.links.linked(), [
      { feedbackId: ann, featureId: 3, email: 'ann@example.com' },
      { feedbackId: anon, featureId: 3, email: null },
      { feedbackId: bo, featureId: 4, email: 'bo@example.com' },
    ]);
    await storage.links.setFeature([anon], 4, null);
    await storage.links.setFeature([bo], null, null);
    assert.equal(await storage.links.linksOf([ann, anon, bo]), [
      { feedbackId: ann, featureId: 3 },
      { feedbackId: anon, featureId: 4 },
      { feedbackId: bo, featureId: null },
    ]);
    assert.equal((await storage.audit.list({ limit: 10, action: 'feedback.' })).map(({ id: _id, ...entry }) => entry), [audit]);
    const events = await storage.outbox.claimDue(T0 + 10_000, 1000, 10);
    assert.equal(events.map((d) => JSON.parse(d.body)), [{ type: 'feedback.linked', timestamp: new Date(T0 + 5000).toISOString(), data: { featureId: 3, feedbackIds: [ann, anon] } }]);
  });
}
