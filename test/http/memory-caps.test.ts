/**
 * The in-memory storage is bounded: each kind a client can add to has a cap, a full kind answers 503
 * storage_full (JSON, with the rate-limit headers) while everything else keeps serving, and unpaid
 * checkout sessions are retired 7 days after they expire, as on SQL. Small caps, an injected clock, a
 * real socket.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createMemoryStorage, type MemoryCaps } from '../../adapters/memory/index.ts';
import { type HttpResult, manualClock } from '../_setup.ts';
import { type InProcessServer, startInProcessServer } from '../_in-process.ts';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/** The answer of a full kind; its resolution says when retrying helps. */
const full = (what: string, resolution: string) => ({
  code: 'storage_full',
  message: `The server's in-memory storage holds the most ${what} it may; nothing was stored.`,
  resolution,
});
const UNTIL_RESTART = 'Retrying does not help before the server restarts: its in-memory storage keeps these until then. Contact support.';

/** A server on memory storage with these caps; `clock` is the one both the app and the storage read. */
async function serve(caps: Partial<MemoryCaps>): Promise<InProcessServer & { stored: ReturnType<typeof createMemoryStorage> }> {
  const clock = manualClock();
  const stored = createMemoryStorage({ clock, caps });
  return { ...(await startInProcessServer({ clock, storage: stored })), stored, clock };
}

const codeOf = (answer: HttpResult) => (answer.json() as { code: string }).code;

const json = (path: string, body: unknown, from?: string) => ({
  method: 'POST',
  path,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
  ...(from ? { from } : {}),
});

test('feedback past its cap: 503 storage_full with the rate-limit headers; the server keeps serving', async () => {
  // Each of these entries is estimated at 256 + 2 x 2 bytes: two fit in 520 bytes, a third does not.
  const server = await serve({ feedbackBytes: 520 });
  try {
    for (let i = 0; i < 2; i++) assert.is((await server.request(json('/api/v1/feedback', { description: `n${i}` }))).status, 201);
    const refused = await server.request(json('/api/v1/feedback', { description: 'one too many' }));
    assert.is(refused.status, 503);
    assert.is(refused.headers['content-type'], 'application/json');
    assert.is(refused.headers['ratelimit-remaining'], '117');
    assert.equal(refused.json(), full('feedback (520 bytes)', UNTIL_RESTART));
    assert.equal(server.stored.feedback.map((f) => f.description), ['n0', 'n1']);
    assert.is((await server.request({ path: '/api/v1/pricing' })).status, 200);
    assert.equal(server.logger.lines.filter((l) => l.level === 'error'), [], 'a full storage is no fault');
  } finally {
    await server.close();
  }
});

test('votes past their cap: a new vote is refused, taking one back still works and makes room', async () => {
  const server = await serve({ votes: 1 });
  try {
    assert.equal((await server.request(json('/api/v1/roadmap', { featureId: 1 }, '127.0.0.2'))).json(), { voted: true, vote_count: 1 });
    const refused = await server.request(json('/api/v1/roadmap', { featureId: 1 }, '127.0.0.3'));
    assert.is(refused.status, 503);
    assert.equal(
      refused.json(),
      full('roadmap votes (1)', 'Retry once other votes are taken back, or after the server restarts; contact support if it persists.'),
    );
    assert.equal((await server.request(json('/api/v1/roadmap', { featureId: 1 }, '127.0.0.2'))).json(), { voted: false, vote_count: 0 });
    assert.equal((await server.request(json('/api/v1/roadmap', { featureId: 1 }, '127.0.0.3'))).json(), { voted: true, vote_count: 1 });
  } finally {
    await server.close();
  }
});

test('downloads past their cap are still redirected, only not counted, and that is logged once a minute', async () => {
  const server = await serve({ downloads: 1 });
  try {
    for (let i = 0; i < 3; i++) assert.is((await server.request({ path: '/api/v1/download?force=1' })).status, 302);
    server.clock.advance(60_000);
    assert.is((await server.request({ path: '/api/v1/download?force=1' })).status, 302);
    assert.is(server.stored.downloads.length, 1);
    assert.equal(
      server.logger.lines.map((l) => `${l.level} ${l.message}`),
      Array(2).fill('warn downloads are not counted: the storage holds the most download events it may'),
    );
  } finally {
    await server.close();
  }
});

test('checkout sessions past their cap: 503 until retention drops unpaid ones 7 days after expiry; paid ones stay', async () => {
  const server = await serve({ checkoutSessions: 2 });
  const create = async () => server.request(json('/api/v1/checkout/create', {}));
  const status = async (id: string) => server.request({ path: `/api/v1/checkout/status?session_id=${id}` });
  try {
    const paid = (await create()).json() as { sessionId: string };
    const unpaid = (await create()).json() as { sessionId: string };
    await server.stored.checkouts.advanceCheckout(paid.sessionId, 'paid');
    const refused = await create();
    assert.is(refused.status, 503);
    // The unpaid session expires in 24 h and is dropped 7 days later, at the next sweep (once a second).
    const dropped = full(
      'checkout sessions (2)',
      'Retry after 2026-11-29T12:00:01.000Z, when the first unpaid checkout session is dropped 7 days after it expired.',
    );
    assert.equal(refused.json(), dropped);

    // 24 h to expire, then 6 days of grace: still there, and a late poll hears session_expired.
    server.clock.advance(DAY + 6 * DAY);
    assert.equal((await create()).json(), dropped);
    assert.is(codeOf(await status(unpaid.sessionId)), 'session_expired');

    // Past the 7-day grace the unpaid session is retired and its room reused; the paid one stays.
    server.clock.advance(DAY + 1);
    assert.is((await create()).status, 200);
    assert.is(codeOf(await status(unpaid.sessionId)), 'unknown_session');
    assert.is(((await status(paid.sessionId)).json() as { status: string }).status, 'paid');
    assert.is((await create()).status, 503);
  } finally {
    await server.close();
  }
});

test.run();
