/**
 * With counters that answer later (a database), a read-only operation (GET roadmap) starts beside its
 * rate-limit hit, so the two share one round trip; a write waits for the hit. What the caller sees does
 * not change: an admitted read answers as before, a refused one answers 429.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createMemoryRateLimitStore } from '../../adapters/memory/rate-limits.ts';
import { createMemoryStorage } from '../../adapters/memory/index.ts';
import type { RateLimitHit, RateLimitStore, Storage } from '../../core/ports/ports.ts';
import { bodyJson, coreRequest, createTestApp, manualClock } from '../_setup.ts';

/** Memory counters whose answers wait until the test releases them, as a database's would. */
function laterCounters(clock = manualClock()) {
  const counters = createMemoryRateLimitStore(clock);
  const waiting: (() => void)[] = [];
  const store: RateLimitStore = {
    hit: (key, windowMs) => new Promise<RateLimitHit>((resolve) => waiting.push(() => resolve(counters.hit(key, windowMs)))),
  };
  return { store, release: () => waiting.splice(0).forEach((answer) => answer()) };
}

/** Memory storage that notes every roadmap call. */
function notingStorage(calls: string[], failReads = false): Storage {
  const storage = createMemoryStorage();
  return Object.assign(Object.create(storage) as Storage, {
    listRoadmap: (voterId: string) => {
      calls.push('list');
      if (failReads) return Promise.reject(new Error('connection reset'));
      return storage.roadmap.listRoadmap(voterId);
    },
    toggleVote: (featureId: number, voterId: string) => {
      calls.push('toggle');
      return storage.roadmap.toggleVote(featureId, voterId);
    },
  });
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

test('GET roadmap reads while its hit is on the way; POST roadmap waits for the hit', async () => {
  const calls: string[] = [];
  const counters = laterCounters();
  const t = await createTestApp({ storage: notingStorage(calls), rateLimitStore: counters.store });
  const listed = t.app.handle(coreRequest({ path: '/api/v1/roadmap' }));
  const toggled = t.app.handle(coreRequest({ method: 'POST', path: '/api/v1/roadmap', json: { featureId: 1 } }));
  await turn();
  assert.equal(calls, ['list']);
  counters.release();
  const [list, toggle] = await Promise.all([listed, toggled]);
  assert.equal(calls, ['list', 'toggle']);
  assert.is(list.status, 200);
  assert.is(list.headers['ratelimit-remaining'], '119');
  const features = (bodyJson(list) as { features: { id: number; vote_count: number; voted: boolean }[] }).features;
  assert.equal(features.map((f) => f.id), t.content.roadmap.filter((f) => f.visible).map((f) => f.id));
  assert.ok(features.every((f) => f.vote_count === 0 && !f.voted));
  assert.is(toggle.status, 200);
  assert.equal(bodyJson(toggle), { voted: true, vote_count: 1 });
});

test('a refused GET roadmap answers 429 whatever its early read did, and a failed read of an admitted one is a 500', async () => {
  const calls: string[] = [];
  const counters = laterCounters();
  const t = await createTestApp({
    storage: notingStorage(calls, true),
    rateLimitStore: counters.store,
    rateLimit: { name: 'public-api', limit: 1, windowSeconds: 60 },
  });
  const first = t.app.handle(coreRequest({ path: '/api/v1/roadmap' }));
  const second = t.app.handle(coreRequest({ path: '/api/v1/roadmap' }));
  // The reads are async functions: they start within the turn, while both hits still wait.
  await turn();
  assert.equal(calls, ['list', 'list']);
  counters.release();
  const [admitted, refused] = await Promise.all([first, second]);
  assert.equal(calls, ['list', 'list']);
  assert.is(refused.status, 429);
  assert.equal(bodyJson(refused), {
    code: 'rate_limited',
    message: 'Too many requests: the limit is 1 per 60 seconds per client.',
    resolution: 'Wait 60 seconds (see Retry-After), then retry.',
  });
  assert.is(admitted.status, 500);
  assert.equal(bodyJson(admitted), {
    code: 'internal_error',
    message: 'The server failed to handle the request.',
    resolution: 'Retry later; if the problem persists, contact support.',
  });
  assert.equal(t.logger.lines.map((line) => [line.level, line.message]), [['error', 'unhandled error']]);
});

test('a read that throws at once, before its hit answers, is the logged 500 once the hit is admitted', async () => {
  const counters = laterCounters();
  const storage = Object.assign(Object.create(createMemoryStorage()) as Storage, {
    listRoadmap: () => {
      throw new Error('no connection');
    },
  });
  const t = await createTestApp({ storage, rateLimitStore: counters.store });
  const listed = t.app.handle(coreRequest({ path: '/api/v1/roadmap' }));
  counters.release();
  const answer = await listed;
  assert.is(answer.status, 500);
  assert.is(answer.headers['ratelimit-remaining'], '119');
  assert.equal(bodyJson(answer), {
    code: 'internal_error',
    message: 'The server failed to handle the request.',
    resolution: 'Retry later; if the problem persists, contact support.',
  });
  assert.equal(t.logger.lines.map((line) => [line.level, line.message]), [['error', 'unhandled error']]);
});

test.run();
