/**
 * A client that pipelines requests whose answers wait for the storage (PostgreSQL's rate-limit counters)
 * cannot make the server start all of them at once (issue 20, item 4): at most MAX_IN_FLIGHT per
 * connection wait for the storage, the connection is not read meanwhile, and every request is answered,
 * in order, as the storage answers. The storage here answers rate-limit hits only when the test releases
 * them, as a slow database would.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createMemoryStorage } from '../../adapters/memory/index.ts';
import { MAX_IN_FLIGHT } from '../../adapters/node/pipeline.ts';
import type { RateLimitHit, RateLimitStore } from '../../core/ports/ports.ts';
import { startTestServer } from '../_setup.ts';
import { KEEP_ALIVE_GET, openConnection, parseResponse } from '../server/_raw-http.ts';

/** Rate-limit hits that answer when released, counting how many wait at once. */
function heldHits(): RateLimitStore & { waiting(): number; most(): number; releaseOne(): void; started(count: number): Promise<void> } {
  const held: (() => void)[] = [];
  let most = 0;
  let count = 0;
  let onStart = () => {};
  return {
    hit: () =>
      new Promise<RateLimitHit>((resolve) => {
        const nth = ++count;
        held.push(() => resolve({ count: nth, resetMs: 60_000 }));
        most = Math.max(most, held.length);
        onStart();
      }),
    waiting: () => held.length,
    most: () => most,
    releaseOne: () => held.shift()?.(),
    started: (wanted) =>
      new Promise((resolve) => {
        onStart = () => held.length >= wanted && resolve();
        onStart();
      }),
  };
}

const PIPELINED = 40;

test(`${PIPELINED} pipelined requests from one connection: at most ${MAX_IN_FLIGHT} wait for the storage at once, all answered in order`, async () => {
  const hits = heldHits();
  const server = await startTestServer({ storage: { ...createMemoryStorage(), rateLimits: hits } });
  try {
    const connection = await openConnection(server.port, '127.0.13.1');
    connection.socket.write(KEEP_ALIVE_GET.repeat(PIPELINED));
    await hits.started(MAX_IN_FLIGHT);
    // Every parsed request has started by now when nothing holds them back (one chunk, parsed at once).
    await new Promise((resolve) => setImmediate(resolve));
    assert.is(hits.waiting(), MAX_IN_FLIGHT);
    const answered = connection.responses(PIPELINED);
    for (let released = 0; released < PIPELINED; released++) {
      await hits.started(1);
      hits.releaseOne();
    }
    const responses = (await answered).map(parseResponse);
    assert.is(responses.length, PIPELINED);
    assert.equal(
      responses.map((r) => [r.status, r.headers['ratelimit-remaining']]),
      Array.from({ length: PIPELINED }, (_, i) => [200, String(120 - (i + 1))]),
    );
    assert.is(hits.most(), MAX_IN_FLIGHT);
    connection.socket.destroy();
  } finally {
    await server.close();
  }
});

test.run();
