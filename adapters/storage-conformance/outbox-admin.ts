/**
 * Contract: the outbox's upkeep. An endpoint's event types come back as a list; a test event goes to its one endpoint only; deleting an endpoint deletes
 * its deliveries (pending ones are never claimed) and nothing of the others'; a rotated secret signs beside
 * the new one until its time, or not at all; replaying the failed deliveries touches failed ones only,
 * oldest first, up to the limit, of one endpoint when asked.
 */
import * as assert from './assert.ts';
import { eventBody, type NewEndpoint } from '../../core/ports/events.ts';
import { type ContractSuite, current, oneChangeEach } from './context.ts';

const T0 = Date.UTC(2026, 10, 26, 9, 0, 0, 250);
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const NEW_SECRET = 'whsec_bmV3LXNlY3JldC1mb3ItdGhlLXRlc3Q=';
const endpoint = (url: string, over: Partial<NewEndpoint> = {}): NewEndpoint => ({
  url,
  secret: SECRET,
  events: [],
  format: 'standard',
  createdAt: T0,
  ...over,
});
const FAILED = { status: 503, error: 'the endpoint answered 503', delivered: false, nextAttemptAt: null } as const;

export function outboxAdminContract(test: ContractSuite): void {
  test('an endpoint gives back the event types it asked for as a list, added, listed and changed', async (context) => {
    const { outbox } = oneChangeEach(current(context).storage);
    const added = await outbox.addEndpoint(endpoint('http://127.0.0.1:9/a', { events: ['release.published', 'feedback.received'] }));
    const all = await outbox.addEndpoint(endpoint('http://127.0.0.1:9/b'));
    const expected = {
      id: added.id,
      url: 'http://127.0.0.1:9/a',
      events: ['release.published', 'feedback.received'],
      format: 'standard',
      enabled: true,
      createdAt: T0,
    };
    assert.equal(added, expected, 'an endpoint gives back the event types it asked for as a list: addEndpoint()');
    assert.equal(all.events, [], 'an endpoint that asked for none has an empty list: addEndpoint().events');
    assert.equal(
      (await outbox.listEndpoints()).map((e) => e.events),
      [['release.published', 'feedback.received'], []],
      'every endpoint with its types, in the order added: listEndpoints() events',
    );
    assert.equal(
      (await outbox.updateEndpoint(all.id, { events: ['order.paid'] }))?.events,
      ['order.paid'],
      'changed types come back as a list: updateEndpoint().events',
    );
  });

  test('a test event is written for its one endpoint only, whatever the types it asked for; an unknown endpoint gets none', async (context) => {
    const { outbox } = oneChangeEach(current(context).storage);
    const a = await outbox.addEndpoint(endpoint('http://127.0.0.1:9/a', { events: ['release.published'] }));
    await outbox.addEndpoint(endpoint('http://127.0.0.1:9/b'));
    const sent = await outbox.sendTest(a.id, { endpointId: a.id }, T0);
    assert.equal({ ...sent, id: 0, eventId: '' }, {
      id: 0,
      eventId: '',
      type: 'webhook.test',
      endpointId: a.id,
      url: 'http://127.0.0.1:9/a',
      state: 'pending',
      attempts: 0,
      createdAt: T0,
      nextAttemptAt: T0,
      lastAttemptAt: null,
      lastStatus: null,
      lastError: null,
      deliveredAt: null,
    }, 'a test event is one pending delivery to its endpoint, due at once: sendTest()');
    assert.match(sent!.eventId, /^msg_[0-9a-f]{32}$/, 'an event id is msg_ and 32 lower-case hex digits: sendTest().eventId');
    const due = await outbox.claimDue(T0, 20_000, 10);
    assert.equal(due.map((d) => [d.endpointId, d.type, d.eventId, d.body]), [[
      a.id,
      'webhook.test',
      sent!.eventId,
      eventBody({ type: 'webhook.test', data: { endpointId: a.id } }, T0),
    ]], 'a test event goes to its one endpoint only: claimDue() [endpoint, type, eventId, body]');
    assert.is(await outbox.sendTest(999, {}, T0), null, 'an unknown endpoint gets no test event: sendTest()');
    assert.is((await outbox.listDeliveries({ limit: 10 })).length, 1, 'one test delivery in all: listDeliveries() length');
  });

  test('deleting an endpoint deletes it and its deliveries, pending ones too; the other endpoints keep theirs', async (context) => {
    const { outbox } = oneChangeEach(current(context).storage);
    const a = await outbox.addEndpoint(endpoint('http://127.0.0.1:9/a'));
    const b = await outbox.addEndpoint(endpoint('http://127.0.0.1:9/b'));
    await outbox.enqueue({ type: 'roadmap.changed', data: { id: 1 } }, T0);
    const [inFlight] = (await outbox.claimDue(T0, 20_000, 10)).filter((d) => d.endpointId === a.id);
    await outbox.enqueue({ type: 'roadmap.changed', data: { id: 2 } }, T0 + 1);
    assert.equal(await outbox.deleteEndpoint(a.id), {
      endpoint: { id: a.id, url: 'http://127.0.0.1:9/a', events: [], format: 'standard', enabled: true, createdAt: T0 },
      dropped: 2,
    }, 'deleting an endpoint deletes it and its deliveries, pending ones too: deleteEndpoint()');
    assert.is(await outbox.deleteEndpoint(a.id), null, 'a second delete of the same id is null: deleteEndpoint()');
    // An attempt under way when it was deleted is recorded nowhere, and nothing of it is sent again.
    await outbox.recordAttempt(inFlight!.id, { at: T0 + 2, status: 204, error: null, delivered: true, nextAttemptAt: null });
    assert.equal((await outbox.listEndpoints()).map((e) => e.id), [b.id], 'the deleted endpoint is gone: listEndpoints() ids');
    assert.equal(
      (await outbox.listDeliveries({ limit: 10 })).map((d) => d.endpointId),
      [b.id, b.id],
      'the other endpoints keep their deliveries: listDeliveries() endpoint ids',
    );
    assert.equal(
      (await outbox.claimDue(T0 + 60_000, 20_000, 10)).map((d) => d.endpointId),
      [b.id, b.id],
      'nothing of a deleted endpoint is sent: claimDue() endpoint ids',
    );
    await outbox.enqueue({ type: 'roadmap.changed', data: { id: 3 } }, T0 + 3);
    assert.equal(
      (await outbox.listDeliveries({ limit: 10 })).map((d) => d.endpointId),
      [b.id, b.id, b.id],
      'a new event goes to the endpoints left: listDeliveries() endpoint ids',
    );
    const c = await outbox.addEndpoint(endpoint('http://127.0.0.1:9/c'));
    assert.ok(c.id > b.id, "a new endpoint never takes a deleted one's id");
  });

  test('a rotated secret signs beside the new one until its time; rotated with no grace, it stops at once', async (context) => {
    const { outbox } = oneChangeEach(current(context).storage);
    const a = await outbox.addEndpoint(endpoint('http://127.0.0.1:9/a'));
    const claim = async (at: number) => {
      await outbox.sendTest(a.id, {}, at);
      const due = await outbox.claimDue(at, 20_000, 10);
      for (const d of due) await outbox.recordAttempt(d.id, { at, status: 204, error: null, delivered: true, nextAttemptAt: null });
      return due.map((d) => [d.secret, d.previousSecret]);
    };
    assert.equal(await claim(T0), [[SECRET, null]], 'an endpoint signs with its secret alone: claimDue() [secret, previousSecret]');
    assert.equal(await outbox.rotateSecret(a.id, NEW_SECRET, T0 + 3_600_000), {
      id: a.id,
      url: 'http://127.0.0.1:9/a',
      events: [],
      format: 'standard',
      enabled: true,
      createdAt: T0,
    }, 'a rotation answers the endpoint: rotateSecret()');
    assert.equal(
      await claim(T0 + 3_599_999),
      [[NEW_SECRET, SECRET]],
      'a rotated secret signs beside the new one until its time: claimDue() [secret, previousSecret]',
    );
    assert.equal(await claim(T0 + 3_600_000), [[NEW_SECRET, null]], 'at its time the rotated secret stops: claimDue() [secret, previousSecret]');
    await outbox.rotateSecret(a.id, SECRET, null);
    assert.equal(await claim(T0 + 10), [[SECRET, null]], 'rotated with no grace, the old secret stops at once: claimDue() [secret, previousSecret]');
    assert.is(await outbox.rotateSecret(999, NEW_SECRET, null), null, 'an unknown endpoint is null: rotateSecret()');
  });

  test('an endpoint change that throws keeps nothing: the test event, the rotation, the replays and the deletion are undone', async (context) => {
    const { storage } = current(context);
    const a = await storage.change((tx) => tx.outbox.addEndpoint(endpoint('http://127.0.0.1:9/a')));
    await storage.change((tx) => tx.outbox.enqueue({ type: 'roadmap.changed', data: { id: 1 } }, T0));
    const [due] = await storage.outbox.claimDue(T0, 20_000, 10);
    await storage.outbox.recordAttempt(due!.id, { at: T0 + 1, ...FAILED });
    const seen = async () => ({ endpoints: await storage.outbox.listEndpoints(), deliveries: await storage.outbox.listDeliveries({ limit: 10 }) });
    const before = await seen();
    const failure = new Error('refused after the writes');
    const thrown = await storage
      .change(async (tx) => {
        assert.ok(await tx.outbox.sendTest(a.id, {}, T0 + 2), 'a test event is written for a known endpoint: sendTest()');
        assert.ok(await tx.outbox.rotateSecret(a.id, NEW_SECRET, null), "a known endpoint's secret is rotated: rotateSecret()");
        assert.is((await tx.outbox.replay(due!.id, T0 + 3))?.state, 'pending', 'a replay in a change: replay().state');
        assert.equal(
          await tx.outbox.replayFailed(T0 + 3, 10, null),
          { replayed: 0, remaining: 0 },
          'a failed-replay in a change, nothing failed: replayFailed()',
        );
        assert.equal((await tx.outbox.updateEndpoint(a.id, { enabled: false }))?.enabled, false, 'a disable in a change: updateEndpoint().enabled');
        assert.is((await tx.outbox.deleteEndpoint(a.id))?.dropped, 2, 'a delete in a change drops its deliveries: deleteEndpoint().dropped');
        throw failure;
      })
      .catch((error: unknown) => error);
    assert.is(thrown, failure, "the change's error comes out as thrown");
    assert.equal(await seen(), before, 'an endpoint change that throws keeps nothing: endpoints and deliveries');
    // The old secret still signs alone, and the failed delivery replays as before.
    assert.equal(
      await storage.change((tx) => tx.outbox.replayFailed(T0 + 4, 10, null)),
      { replayed: 1, remaining: 0 },
      'the failed delivery replays as before: replayFailed()',
    );
    const [again] = await storage.outbox.claimDue(T0 + 4, 20_000, 10);
    assert.equal(
      [again?.id, again?.secret, again?.previousSecret],
      [due!.id, SECRET, null],
      'the old secret still signs alone: claimDue()[0] [id, secret, previousSecret]',
    );
  });

  test('replaying the failed deliveries makes failed ones pending again, oldest first, up to the limit; of one endpoint when asked', async (context) => {
    const { outbox } = oneChangeEach(current(context).storage);
    const a = await outbox.addEndpoint(endpoint('http://127.0.0.1:9/a'));
    const b = await outbox.addEndpoint(endpoint('http://127.0.0.1:9/b'));
    for (let i = 0; i < 3; i++) await outbox.enqueue({ type: 'roadmap.changed', data: { id: i } }, T0 + i);
    const due = await outbox.claimDue(T0 + 10, 20_000, 10);
    // Five fail for good, one is delivered.
    for (const d of due.slice(0, 5)) await outbox.recordAttempt(d.id, { at: T0 + 11, ...FAILED });
    await outbox.recordAttempt(due[5]!.id, { at: T0 + 11, status: 204, error: null, delivered: true, nextAttemptAt: null });
    const failedIds = due.slice(0, 5).map((d) => d.id).sort((x, y) => x - y);
    assert.equal(
      await outbox.replayFailed(T0 + 100, 2, null),
      { replayed: 2, remaining: 3 },
      'failed deliveries are replayed up to the limit, the rest counted: replayFailed()',
    );
    const pending = await outbox.listDeliveries({ state: 'pending', limit: 10 });
    assert.equal(
      pending.map((d) => [d.id, d.attempts, d.nextAttemptAt]).reverse(),
      failedIds.slice(0, 2).map((id) => [id, 0, T0 + 100]),
      "the oldest failed ones first, pending from the start, due at once: listDeliveries({ state: 'pending' }) [id, attempts, nextAttemptAt]",
    );
    const ofB = (await outbox.listDeliveries({ state: 'failed', limit: 10 })).filter((d) => d.endpointId === b.id).length;
    assert.equal(await outbox.replayFailed(T0 + 200, 100, b.id), { replayed: ofB, remaining: 0 }, "only one endpoint's when asked: replayFailed(b)");
    assert.equal(await outbox.replayFailed(T0 + 300, 100, null), { replayed: 3 - ofB, remaining: 0 }, 'the rest: replayFailed()');
    assert.equal(await outbox.replayFailed(T0 + 400, 100, a.id), { replayed: 0, remaining: 0 }, 'nothing failed left: replayFailed(a)');
    assert.equal((await outbox.listDeliveries({ state: 'delivered', limit: 10 })).map((d) => d.id), [due[5]!.id], 'a delivered one stays delivered');
  });
}
