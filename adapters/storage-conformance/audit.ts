/**
 * Contract: what a change reports is written with it. A change's audit entry (an operator's change) is
 * stored by the change itself, with or without an event, and a change that finds nothing to change
 * writes none.
 */
import * as assert from './assert.ts';
import { recordChange } from '../../core/ports/change.ts';
import { type ContractSuite, current } from './context.ts';

const T0 = Date.UTC(2026, 10, 26, 9, 0, 0, 7);

/** An audit entry of a change, named after it. */
const auditEntry = (action: string, target: string) => ({ at: T0, action, target, requestId: `r-${action}`, actor: 'ada' });

export function auditContract(test: ContractSuite): void {
  test('changes write their audit entries with them: endpoints, replays, marks, features, keys', async (context) => {
    const { storage } = current(context);
    const endpoint = await storage.change(async (tx) => {
      const e = await tx.outbox.addEndpoint({
        url: 'http://127.0.0.1:9/audit',
        secret: 'whsec_AAAA',
        events: ['roadmap.changed'],
        format: 'standard',
        createdAt: T0,
      });
      await tx.audit.record(auditEntry('webhook.added', `${e.id}: ${e.url}`));
      return e;
    });
    assert.is(await storage.change((tx) => tx.outbox.updateEndpoint(999, { enabled: false })), null, 'no endpoint');
    await storage.change(async (tx) => {
      const e = (await tx.outbox.updateEndpoint(endpoint.id, { enabled: true }))!;
      await tx.audit.record(auditEntry('webhook.edited', `${e.id}: enabled=${e.enabled}`));
    });
    const feature = await storage.change(async (tx) => {
      const f = await tx.features.create({
        title: 'Lotus 1-2-3 macros',
        description: 'Keep macros as comments.',
        category: 'import',
        visible: true,
        release_version: null,
      });
      await recordChange(tx, {
        at: T0,
        event: { type: 'roadmap.changed', data: { action: 'created', id: f.id } },
        audit: { at: T0, action: 'roadmap.created', target: `${f.id}`, requestId: 'r-create', actor: 'grace' },
      });
      return f;
    });
    await storage.intake.addFeedback({ type: 'bug_report', description: 'It crashed.', email: null, rating: null, appVersion: '2.4.1', receivedAt: T0 });
    const [entry] = await storage.inbox.list({ limit: 1 });
    /** A mark with its audit entry, written only when it changed the entry. */
    const mark = (id: number) =>
      storage.change(async (tx) => {
        const done = await tx.inbox.setHandled(id, true, T0);
        if (done?.changed) {
          await recordChange(tx, { at: T0, audit: { at: T0, action: 'feedback.true', target: String(id), requestId: 'r-mark', actor: 'ada' } });
        }
        return done;
      });
    assert.is((await mark(entry!.id))?.changed, true, 'marking an entry handled changes it: setHandled().changed');
    assert.is((await mark(entry!.id))?.changed, false, 'marking an entry handled again changes nothing: setHandled().changed');
    assert.is(await mark(entry!.id + 1000), null, 'an unknown entry is null: setHandled()');
    await storage.checkouts.createCheckout({
      id: 'cs_audit',
      sku: 'standard',
      channel: null,
      url: 'https://pay.example.com/cs_audit',
      state: 'paid',
      createdAt: T0,
      expiresAt: T0 + 3_600_000,
    });
    await storage.checkouts.saveLicenses('cs_audit', { standard: 'key/s', plus: null });
    await storage.change(async (tx) => {
      const saved = (await tx.orders.addPlusKey('cs_audit', 'key/p'))!;
      await tx.audit.record(auditEntry('order.upgraded', `stored=${saved.stored}`));
    });
    assert.equal(
      (await storage.audit.list({ limit: 20 })).map(({ action, target, actor }) => `${actor} ${action} ${target}`),
      [
        'ada order.upgraded stored=true',
        `ada feedback.true ${entry!.id}`,
        `grace roadmap.created ${feature.id}`,
        `ada webhook.edited ${endpoint.id}: enabled=true`,
        `ada webhook.added ${endpoint.id}: http://127.0.0.1:9/audit`,
      ],
      "a change's audit entries are written with it, newest first: audit.list() [actor action target]",
    );
    const bodies = (await storage.outbox.claimDue(T0, 20_000, 10)).map((d) => JSON.parse(d.body) as { type: string });
    assert.equal(bodies.map((b) => b.type), ['roadmap.changed'], 'an audit-only report writes no event');
  });

  test('an override answers the standing read before it; of two, the second sees the first', async (context) => {
    const { storage } = current(context);
    await storage.checkouts.createCheckout({
      id: 'cs_twice',
      sku: 'standard',
      channel: null,
      url: 'https://pay.example.com/cs_twice',
      state: 'paid',
      createdAt: T0,
      expiresAt: T0 + 3_600_000,
    });
    const [first, second] = await Promise.all([
      storage.change((tx) => tx.orders.override('cs_twice', 'revoked', null, T0)),
      storage.change((tx) => tx.orders.override('cs_twice', 'revoked', null, T0 + 1)),
    ]);
    const befores = [first!.before.override, second!.before.override].sort();
    assert.equal(befores, ['revoked', null].sort(), 'exactly one of two racing overrides saw the order unrevoked');
  });
}
