/**
 * Contract: the outbox. An event is written with its change, one delivery per enabled endpoint that wants
 * its type, nothing without one; deliveries are leased, retried, finished and replayed as the worker
 * records them.
 */
import * as assert from './assert.ts';
import type { FeedbackEntry } from '../../core/ports/ports.ts';
import { feedbackReceived } from '../../core/webhooks/events.ts';
import { eventBody, type NewEndpoint } from '../../core/ports/events.ts';
import { type ContractSuite, current } from './context.ts';

const T0 = Date.UTC(2026, 10, 25, 9, 30, 0, 123);
const endpoint = (url: string, over: Partial<NewEndpoint> = {}): NewEndpoint => ({
  url,
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  events: [],
  format: 'standard',
  createdAt: T0,
  ...over,
});
const ENTRY: FeedbackEntry = {
  type: 'bug_report',
  description: 'Crashes on a .wk3 «file»',
  email: 'a@example.com',
  appVersion: '2.4.1',
  rating: null,
  receivedAt: T0,
};
const RELEASE = { version: '2.6.0', msiUrl: 'https://downloads.example.com/2.6.0.msi', notesUrl: null, rolloutBasisPoints: 10, publishedAt: T0 };

export function outboxContract(test: ContractSuite): void {
  test('without an endpoint nothing is written; with one, each change writes one pending delivery', async (context) => {
    const { storage } = current(context);
    await storage.intake.addFeedback(ENTRY);
    await storage.change((tx) => tx.outbox.enqueue({ type: 'roadmap.changed', data: { id: 1 } }, T0));
    assert.equal(await storage.outbox.listDeliveries({ limit: 10 }), [], 'without an endpoint an event writes nothing: listDeliveries()');
    const added = await storage.change((tx) => tx.outbox.addEndpoint(endpoint('http://127.0.0.1:9/a')));
    assert.equal(
      added,
      { id: added.id, url: 'http://127.0.0.1:9/a', events: [], format: 'standard', enabled: true, createdAt: T0 },
      'an endpoint is added enabled, as given: addEndpoint()',
    );
    await storage.intake.addFeedback({ ...ENTRY, receivedAt: T0 + 1 });
    const [delivery] = await storage.outbox.listDeliveries({ limit: 10 });
    assert.match(String(delivery?.eventId), /^msg_[0-9a-f]{32}$/, 'an event id is msg_ and 32 lower-case hex digits: listDeliveries()[0].eventId');
    assert.equal({ ...delivery, id: 0, eventId: '' }, {
      id: 0,
      eventId: '',
      type: 'feedback.received',
      endpointId: added.id,
      url: 'http://127.0.0.1:9/a',
      state: 'pending',
      attempts: 0,
      createdAt: T0 + 1,
      nextAttemptAt: T0 + 1,
      lastAttemptAt: null,
      lastStatus: null,
      lastError: null,
      deliveredAt: null,
    }, 'each change writes one pending delivery, due at once: listDeliveries()[0]');
    // The body names the stored entry's id, byte for byte as every storage writes it.
    const [claimed] = await storage.outbox.claimDue(T0 + 1, 20_000, 10);
    const [stored] = await storage.inbox.list({ limit: 1 });
    assert.is(
      claimed!.body,
      eventBody(feedbackReceived({ ...ENTRY, receivedAt: T0 + 1 }, stored!.id), T0 + 1),
      "the body is the event's JSON, byte for byte, naming the stored entry's id: claimDue()[0].body",
    );
    assert.equal(
      [claimed!.secret, claimed!.format, claimed!.attempts],
      ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'standard', 0],
      "a claimed delivery carries its endpoint's secret and format, attempts 0: claimDue()[0] [secret, format, attempts]",
    );
  });

  test('feedback stored within a budget writes its event too; a refused one writes none', async (context) => {
    const { storage } = current(context);
    await storage.change((tx) => tx.outbox.addEndpoint(endpoint('http://127.0.0.1:9/a')));
    const budget = { client: 'client-hash', day: Math.floor(T0 / 86_400_000), bytes: 300, perClient: 500, total: 10_000, sharePercent: 100 };
    assert.is(await storage.intake.addFeedback(ENTRY, budget), null, 'feedback within its budget is stored: addFeedback()');
    assert.is(
      (await storage.intake.addFeedback({ ...ENTRY, description: 'refused' }, budget))?.reason,
      'client',
      'feedback past its budget is refused: addFeedback().reason',
    );
    const [stored] = await storage.inbox.list({ limit: 5 });
    const due = await storage.outbox.claimDue(T0, 20_000, 10);
    assert.equal(due.map((d) => d.body), [eventBody(feedbackReceived(ENTRY, stored!.id), T0)], 'only the stored feedback wrote its event: claimDue() bodies');
  });

  test('a disabled endpoint is sent nothing, replays included; two endpoints get at most their share each', async (context) => {
    const { storage } = current(context);
    const a = await storage.change((tx) => tx.outbox.addEndpoint(endpoint('http://127.0.0.1:9/a')));
    const b = await storage.change((tx) => tx.outbox.addEndpoint(endpoint('http://127.0.0.1:9/b')));
    for (const text of ['one', 'two', 'three']) await storage.intake.addFeedback({ ...ENTRY, description: text });
    const share = { perEndpoint: 2, inFlight: new Map([[b.id, 1]]) };
    const claimed = await storage.outbox.claimDue(T0, 20_000, 10, share);
    assert.equal(claimed.map((d) => d.endpointId).sort(), [a.id, a.id, b.id], 'a: 2 of 3; b: 1 of 3, one already in flight');
    await storage.change((tx) => tx.outbox.updateEndpoint(a.id, { enabled: false }));
    await storage.change((tx) => tx.outbox.replay(claimed[0]!.id, T0));
    assert.equal((await storage.outbox.claimDue(T0 + 20_000, 20_000, 10)).map((d) => d.endpointId), [b.id, b.id, b.id], 'only b: a is disabled');
    await storage.change((tx) => tx.outbox.updateEndpoint(a.id, { enabled: true }));
    assert.equal(
      (await storage.outbox.claimDue(T0 + 40_000, 20_000, 10)).map((d) => d.endpointId).sort(),
      [a.id, a.id, a.id, b.id, b.id, b.id],
      'an endpoint enabled again gets its deliveries, replays included: claimDue() endpoint ids',
    );
  });

  test('feedback follows the endpoint changes before it: added, disabled, enabled again', async (context) => {
    const { storage } = current(context);
    const added = await storage.change((tx) => tx.outbox.addEndpoint(endpoint('http://127.0.0.1:9/a')));
    await storage.intake.addFeedback({ ...ENTRY, description: 'after the add' });
    await storage.change((tx) => tx.outbox.updateEndpoint(added.id, { enabled: false }));
    await storage.intake.addFeedback({ ...ENTRY, description: 'while disabled' });
    await storage.change((tx) => tx.outbox.updateEndpoint(added.id, { enabled: true }));
    await storage.intake.addFeedback({ ...ENTRY, description: 'enabled again' });
    const due = await storage.outbox.claimDue(T0, 20_000, 10);
    assert.equal(
      due.map((d) => (JSON.parse(d.body) as { data: { description: string } }).data.description).sort(),
      ['after the add', 'enabled again'],
      'feedback writes a delivery only while its endpoint is enabled: claimDue() descriptions',
    );
  });

  test('feedback.received bodies are byte for byte what JSON.stringify writes, whatever the text holds', async (context) => {
    const { storage } = current(context);
    await storage.change((tx) => tx.outbox.addEndpoint(endpoint('http://127.0.0.1:9/a')));
    const entries: FeedbackEntry[] = [
      {
        type: 'general',
        description: 'Quotes " and \\ backslash, tab\t, new\r\nline, \u0001\u001f\u007f, \u2028 and 😀 in «Lotus»',
        email: null,
        appVersion: null,
        rating: 5,
        receivedAt: Date.UTC(2026, 0, 2, 3, 4, 5, 6),
      },
      {
        type: 'review',
        description: '</script><b>',
        email: "o'brien+x@example.com",
        appVersion: '10.0.0-beta.1',
        rating: null,
        receivedAt: Date.UTC(2026, 11, 31, 23, 59, 59, 999),
      },
    ];
    for (const entry of entries) await storage.intake.addFeedback(entry);
    const stored = (await storage.inbox.list({ limit: 5 })).map((e) => e.id).sort((a, b) => a - b);
    const due = await storage.outbox.claimDue(Date.UTC(2027, 0, 1), 20_000, 10);
    assert.equal(
      due.map((d) => d.body).sort(),
      entries.map((e, i) => eventBody(feedbackReceived(e, stored[i]!), e.receivedAt)).sort(),
      'feedback.received bodies are byte for byte what JSON.stringify writes: claimDue() bodies',
    );
  });

  test('keys and order verdicts write their events with them: the storing save only, the override when asked', async (context) => {
    const { storage } = current(context);
    await storage.change((tx) => tx.outbox.addEndpoint(endpoint('http://127.0.0.1:9/a')));
    const session = {
      id: 'cs_events',
      sku: 'standard' as const,
      channel: null,
      url: 'https://pay.example.com/cs_events',
      state: 'paid' as const,
      createdAt: T0,
      expiresAt: T0 + 3_600_000,
    };
    await storage.checkouts.createCheckout(session);
    /** Saves keys in a change, with order.paid when this save stored them (as fulfilment does). */
    const save = (standard: string) =>
      storage.change(async (tx) => {
        const saved = await tx.checkouts.saveLicenses('cs_events', { standard, plus: null });
        if (saved.stored) await tx.outbox.enqueue({ type: 'order.paid', data: { key: saved.keys.standard } }, T0);
        return saved;
      });
    assert.equal(await save('key-1'), { keys: { standard: 'key-1', plus: null }, stored: true }, 'the first save stores the keys: saveLicenses()');
    assert.equal((await save('key-2')).stored, false, 'a second save stores nothing: saveLicenses().stored');
    const revoked = await storage.change(async (tx) => {
      const overridden = await tx.orders.override('cs_events', 'revoked', 'test', T0 + 1);
      const order = overridden!.order;
      await tx.outbox.enqueue({ type: 'license.revoked', data: { session: order.session.id, override: order.standing.override } }, T0 + 1);
      return overridden;
    });
    assert.is(revoked?.order.standing.override, 'revoked', 'an override in a change: override().order.standing.override');
    const bodies = (await storage.outbox.claimDue(T0 + 1, 20_000, 10)).map((d) => JSON.parse(d.body) as { type: string; data: unknown });
    assert.equal(bodies, [
      { type: 'order.paid', timestamp: new Date(T0).toISOString(), data: { key: 'key-1' } },
      { type: 'license.revoked', timestamp: new Date(T0 + 1).toISOString(), data: { session: 'cs_events', override: 'revoked' } },
    ], "the storing save's event and the override's are written, nothing else: claimDue() bodies");
  });

  test('an endpoint gets only the types it asked for, and a disabled one none', async (context) => {
    const { storage } = current(context);
    const releases = await storage.change((tx) => tx.outbox.addEndpoint(endpoint('http://127.0.0.1:9/releases', { events: ['release.published'] })));
    const off = await storage.change((tx) => tx.outbox.addEndpoint(endpoint('http://127.0.0.1:9/off')));
    assert.equal(
      (await storage.change((tx) => tx.outbox.updateEndpoint(off.id, { enabled: false })))?.enabled,
      false,
      'an endpoint is disabled: updateEndpoint().enabled',
    );
    assert.is(await storage.change((tx) => tx.outbox.updateEndpoint(999, { enabled: false })), null, 'an unknown endpoint is null: updateEndpoint()');
    await storage.intake.addFeedback(ENTRY);
    await storage.change(async (tx) => {
      await tx.releases.publishRelease(RELEASE);
      await tx.outbox.enqueue({ type: 'release.published', data: { version: RELEASE.version } }, T0);
      const feature = await tx.features.create({ title: 'T', description: '', category: 'app', visible: true, release_version: null });
      await tx.outbox.enqueue({ type: 'roadmap.changed', data: { id: feature.id } }, T0);
    });
    const deliveries = await storage.outbox.listDeliveries({ limit: 10 });
    assert.equal(
      deliveries.map((d) => [d.type, d.endpointId]),
      [['release.published', releases.id]],
      'an endpoint gets only the types it asked for, a disabled one none: listDeliveries() [type, endpoint]',
    );
    const [due] = await storage.outbox.claimDue(T0, 20_000, 10);
    assert.is(
      due!.body,
      '{"type":"release.published","timestamp":"2026-11-25T09:30:00.123Z","data":{"version":"2.6.0"}}',
      "the body is the event's JSON, byte for byte: claimDue()[0].body",
    );
    assert.equal((await storage.outbox.listEndpoints()).map((e) => [e.url, e.events, e.enabled]), [
      ['http://127.0.0.1:9/releases', ['release.published'], true],
      ['http://127.0.0.1:9/off', [], false],
    ], 'every endpoint in the order added, with its types and state: listEndpoints() [url, events, enabled]');
  });

  test('a claim leases; attempts are recorded; a finished delivery is replayed from the start', async (context) => {
    const { storage } = current(context);
    const { outbox } = storage;
    await storage.change(async (tx) => {
      await tx.outbox.addEndpoint(endpoint('http://127.0.0.1:9/a'));
      await tx.outbox.enqueue({ type: 'roadmap.changed', data: { id: 1 } }, T0);
    });
    const [first] = await outbox.claimDue(T0, 20_000, 10);
    assert.ok(first, 'a pending delivery due at now is claimed: claimDue()');
    assert.equal(await outbox.claimDue(T0 + 19_999, 20_000, 10), [], 'leased: not due again while an attempt may run');
    await outbox.recordAttempt(first.id, { at: T0 + 1000, status: 503, error: 'the endpoint answered 503', delivered: false, nextAttemptAt: T0 + 6000 });
    assert.equal(await outbox.claimDue(T0 + 5999, 20_000, 10), [], 'a failed attempt is not due before its next attempt: claimDue()');
    const [second] = await outbox.claimDue(T0 + 6000, 20_000, 10);
    assert.equal([second?.id, second?.attempts], [first.id, 1], 'a retry is claimed when due, its attempts counted: claimDue()[0] [id, attempts]');
    await outbox.recordAttempt(first.id, { at: T0 + 7000, status: 204, error: null, delivered: true, nextAttemptAt: null });
    const [done] = await outbox.listDeliveries({ state: 'delivered', limit: 10 });
    assert.equal(
      [done?.state, done?.attempts, done?.lastStatus, done?.deliveredAt, done?.nextAttemptAt],
      ['delivered', 2, 204, T0 + 7000, null],
      "a delivered attempt is recorded, no next attempt: listDeliveries({ state: 'delivered' })[0] [state, attempts, lastStatus, deliveredAt, nextAttemptAt]",
    );
    assert.equal(await outbox.listDeliveries({ state: 'pending', limit: 10 }), [], "nothing pending once delivered: listDeliveries({ state: 'pending' })");
    const replayed = await storage.change((tx) => tx.outbox.replay(first.id, T0 + 9000));
    assert.equal(
      [replayed?.state, replayed?.attempts, replayed?.nextAttemptAt, replayed?.eventId],
      ['pending', 0, T0 + 9000, first.eventId],
      'a replay is pending from the start, due at once, with the same event id: replay() [state, attempts, nextAttemptAt, eventId]',
    );
    assert.is(await storage.change((tx) => tx.outbox.replay(999_999, T0)), null, 'an unknown delivery is null: replay()');
    await outbox.recordAttempt(first.id, { at: T0 + 9000, status: null, error: 'connect ECONNREFUSED', delivered: false, nextAttemptAt: null });
    const [failed] = await outbox.listDeliveries({ state: 'failed', limit: 10 });
    assert.equal(
      [failed?.state, failed?.lastError, failed?.lastStatus],
      ['failed', 'connect ECONNREFUSED', null],
      "an attempt with no next attempt fails the delivery: listDeliveries({ state: 'failed' })[0] [state, lastError, lastStatus]",
    );
  });
}
