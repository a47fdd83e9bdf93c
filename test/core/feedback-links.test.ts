/**
 * Requests linked to the roadmap (core/operator/feedback-links.ts), in process: PUT /feedback/{id}/feature
 * and the bulk POST /feedback/feature link and unlink, audited, with one feedback.linked event per change;
 * the Inbox lists each entry's feature, the roadmap admin each feature's linked requests and how many left
 * an email; a merge moves the links with the votes and an unmerge moves them back.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { operate as operateOn, OPERATOR_TOKEN } from '../_operator.ts';
import { coreRequest, createTestApp, type TestApp } from '../_setup.ts';

const test = suite('feedback linked to the roadmap');

/** An operator request with the request id the audit rows are checked for. */
const operate = (t: TestApp, method: string, target: string, json?: unknown) => operateOn(t.app, method, target, json, { 'x-request-id': 'req-links' });

const submit = (t: TestApp, description: string, email?: string) =>
  t.app.handle(coreRequest({ method: 'POST', path: '/api/v1/feedback', json: { description, type: 'feature_request', ...(email ? { email } : {}) } }));

/** Three requests (1 and 3 left an email) and an endpoint that takes every event. */
async function setUp(): Promise<TestApp> {
  const t = await createTestApp({ operatorToken: OPERATOR_TOKEN });
  await submit(t, 'Charts in .wk3 files please', 'ann@example.com');
  await submit(t, 'wk3 charts');
  await submit(t, 'Batch whole folders', 'bo@example.com');
  await t.storage.change((tx) =>
    tx.outbox.addEndpoint({
      url: 'http://127.0.0.1:9/hook',
      secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      events: ['feedback.linked'],
      format: 'standard',
      createdAt: t.clock.now(),
    })
  );
  return t;
}

/** Features 3 and 4 (the others are never linked here) as [id, linked_requests, linked_with_email]. */
const features = async (t: TestApp) =>
  ((await operate(t, 'GET', '/roadmap')).body['features'] as { id: number; linked_requests: number[]; linked_with_email: number }[])
    .filter((f) => f.id === 3 || f.id === 4 || f.linked_requests.length > 0)
    .map((f) => [f.id, f.linked_requests, f.linked_with_email]);

test('link one, link the rest in bulk, relink, unlink: the inbox and the roadmap admin show it, each change audited once', async () => {
  const t = await setUp();
  assert.equal(await operate(t, 'PUT', '/feedback/1/feature', { featureId: 3 }), { status: 200, body: { id: 1, featureId: 3, changed: true } });
  assert.equal(await operate(t, 'PUT', '/feedback/1/feature', { featureId: 3 }), { status: 200, body: { id: 1, featureId: 3, changed: false } });
  assert.equal(await operate(t, 'POST', '/feedback/feature', { ids: [1, 2, 9], featureId: 3 }), {
    status: 200,
    body: { linked: [2], unchanged: 1, notFound: 1 },
  });
  assert.equal(await features(t), [[3, [1, 2], 1], [4, [], 0]]);
  await operate(t, 'PUT', '/feedback/3/feature', { featureId: 4 });
  assert.equal(
    ((await operate(t, 'GET', '/feedback?handled=false')).body['entries'] as { id: number; featureId: number | null }[]).map((e) => [e.id, e.featureId]),
    [[3, 4], [2, 3], [1, 3]],
  );
  assert.equal(await operate(t, 'PUT', '/feedback/2/feature', { featureId: null }), { status: 200, body: { id: 2, featureId: null, changed: true } });
  assert.equal(await features(t), [[3, [1], 1], [4, [3], 1]]);
  const audit = ((await operate(t, 'GET', '/audit?action=feedback.')).body['entries'] as { action: string; target: string; actor: string; requestId: string }[])
    .map((e) => [e.action, e.target, e.actor, e.requestId]);
  assert.equal(audit.reverse(), [
    ['feedback.linked', '1 to feature 3', 'operator', 'req-links'],
    ['feedback.linked', '1 entry (of 3 listed) to feature 3', 'operator', 'req-links'],
    ['feedback.linked', '3 to feature 4', 'operator', 'req-links'],
    ['feedback.unlinked', '2 to no feature', 'operator', 'req-links'],
  ]);
  const events = (await t.storage.outbox.claimDue(t.clock.now() + 1000, 1000, 10)).map((d) => JSON.parse(d.body).data);
  assert.equal(events, [
    { featureId: 3, feedbackIds: [1] },
    { featureId: 3, feedbackIds: [2] },
    { featureId: 4, feedbackIds: [3] },
    { featureId: null, feedbackIds: [2] },
  ]);
});

test('bad input: an unknown entry or feature is a 404 JSON error and nothing changes', async () => {
  const t = await setUp();
  const missing = await operate(t, 'PUT', '/feedback/7/feature', { featureId: 3 });
  assert.equal(missing, {
    status: 404,
    body: { code: 'feedback_not_found', message: 'No feedback has id "7".', resolution: 'List the inbox with GET /feedback and use one of its ids.' },
  });
  assert.is((await operate(t, 'PUT', '/feedback/1/feature', { featureId: 99 })).body['code'], 'feature_not_found');
  assert.is((await operate(t, 'POST', '/feedback/feature', { ids: [1], featureId: 99 })).body['code'], 'feature_not_found');
  assert.is((await operate(t, 'PUT', '/feedback/1/feature', { feature: 3 })).status, 400);
  assert.equal(await features(t), [[3, [], 0], [4, [], 0]]);
});

test('a merge moves the links with the votes, and an unmerge moves them back', async () => {
  const t = await setUp();
  await operate(t, 'POST', '/feedback/feature', { ids: [1, 2], featureId: 3 });
  await operate(t, 'PUT', '/feedback/3/feature', { featureId: 4 });
  assert.is((await operate(t, 'POST', '/roadmap/3/merge', { into: 4 })).status, 200);
  assert.equal(await features(t), [[3, [], 0], [4, [1, 2, 3], 2]]);
  assert.is((await operate(t, 'POST', '/roadmap/3/unmerge')).status, 200);
  assert.equal(await features(t), [[3, [1, 2], 1], [4, [3], 1]]);
});

test.run();
