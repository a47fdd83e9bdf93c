/**
 * The Observer port: one `answered` per answer with the route template, and the counted events (unexpected
 * errors, storage faults, 429s, sessions, licenses, feedback, votes) as the operations see them.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createMemoryStorage } from '../../adapters/memory/index.ts';
import { ApiError } from '../../core/http/errors.ts';
import type { AppEvent, Observer } from '../../core/ports/ports.ts';
import { coreRequest, createTestApp, manualClock } from '../_setup.ts';

function recorder() {
  const events: Partial<Record<AppEvent, number>> = {};
  const answers: [string, number, string | null, string | undefined][] = [];
  const observer: Observer = {
    answered: (request, response, route, seconds) => {
      assert.ok(seconds >= 0);
      answers.push([request.path, response.status, route, response.headers['x-request-id']]);
    },
    count: (event, n) => void (events[event] = (events[event] ?? 0) + n),
  };
  return { observer, events, answers };
}

test('every answer is observed once with its route template, 404s, 429s, probes and rejects included', async () => {
  const { observer, answers } = recorder();
  const { app } = await createTestApp({ observer, rateLimit: { name: 'public-api', limit: 2, windowSeconds: 60 } });
  await app.handle(coreRequest({ path: '/api/pricing/', headers: { 'x-request-id': 'a1' } }));
  await app.handle(coreRequest({ path: '/checkout/simulator/cs_sim_x' }));
  await app.handle(coreRequest({ path: '/nope' }));
  await app.handle(coreRequest({ path: '/healthz' }));
  await app.reject('203.0.113.9', new ApiError('malformed_request', 'Bad HTTP.'));
  assert.equal(
    answers.map(([path, status, route]) => [path, status, route]),
    [
      ['/api/pricing/', 200, '/api/pricing'],
      ['/checkout/simulator/cs_sim_x', 404, '/checkout/simulator/:id'],
      ['/nope', 429, null],
      ['/healthz', 200, '/healthz'],
      ['', 400, null],
    ],
  );
  assert.is(answers[0]![3], 'a1');
});

test('events: feedback, vote, checkout, licenses, 429 and an unexpected error are counted', async () => {
  const { observer, events } = recorder();
  const clock = manualClock();
  const storage = createMemoryStorage({ clock });
  const t = await createTestApp({ observer, storage, clock, rateLimit: { name: 'public-api', limit: 6, windowSeconds: 60 } });
  const post = (path: string, json?: unknown) => t.app.handle(coreRequest({ method: 'POST', path, ...(json === undefined ? {} : { json }) }));
  assert.is((await post('/api/v1/feedback', { description: 'x' })).status, 201);
  assert.is((await post('/api/v1/roadmap', { featureId: 1 })).status, 200);
  const created = await post('/api/v1/checkout/create', { product: 'plus_bundle' });
  const { sessionId } = JSON.parse(String(created.body)) as { sessionId: string };
  await storage.checkouts.advanceCheckout(sessionId, 'paid');
  const status = await t.app.handle(coreRequest({ path: '/api/v1/checkout/status', query: `session_id=${sessionId}` }));
  assert.is(status.status, 200);
  storage.roadmap.listRoadmap = () => {
    throw new Error('disk on fire');
  };
  assert.is((await t.app.handle(coreRequest({ path: '/api/v1/roadmap' }))).status, 500);
  await t.app.handle(coreRequest({ path: '/api/v1/pricing' }));
  assert.is((await t.app.handle(coreRequest({ path: '/api/v1/pricing' }))).status, 429);
  assert.equal(events, {
    feedback_stored: 1,
    vote_toggled: 1,
    checkout_created: 1,
    license_issued: 2,
    unhandled: 1,
    rate_limited: 1,
  });
});

test('an unexpected error is unhandled, logged with its request id; a download not recorded is a storage fault', async () => {
  const { observer, events } = recorder();
  const storage = createMemoryStorage();
  const t = await createTestApp({ observer, storage });
  storage.roadmap.listRoadmap = () => {
    throw new TypeError('a bug, not the database');
  };
  storage.intake.recordDownload = () => Promise.reject(new Error('connection reset'));
  const failed = await t.app.handle(coreRequest({ path: '/api/v1/roadmap', headers: { 'x-request-id': 'bug-1' } }));
  assert.is(failed.status, 500);
  const headers = { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64)', 'x-request-id': 'dl-1' };
  assert.is((await t.app.handle(coreRequest({ path: '/api/v1/download', headers }))).status, 302);
  assert.equal(events, { unhandled: 1, storage_error: 1 });
  const logged = t.logger.lines.map((line) => [line.level, line.message, line.fields?.['requestId']]);
  assert.equal(logged, [
    ['error', 'unhandled error', 'bug-1'],
    ['error', 'could not record a download', 'dl-1'],
  ]);
});

test.run();
