/**
 * Contract: fixed-window counters per key.
 */
import * as assert from './assert.ts';
import { type ContractSuite, current } from './context.ts';

const WINDOW = 60_000;

export function rateLimitContract(test: ContractSuite): void {
  test('hits count up per key within a window that started at the first hit', async (context) => {
    const { rateLimits } = current(context).storage;
    const first = await rateLimits.hit('203.0.113.1', WINDOW, 120);
    assert.is(first.count, 1, "a window starts at a key's first hit, counting 1: hit().count");
    assert.ok(first.resetMs > WINDOW - 5000 && first.resetMs <= WINDOW, `resetMs ${first.resetMs}`);
    assert.is((await rateLimits.hit('203.0.113.1', WINDOW, 120)).count, 2, 'each hit in the window answers its own count: hit().count');
    assert.is((await rateLimits.hit('203.0.113.2', WINDOW, 120)).count, 1, 'each key counts on its own: hit().count of another key');
    const third = await rateLimits.hit('203.0.113.1', WINDOW, 120);
    assert.is(third.count, 3, 'each hit in the window answers its own count: the third hit().count');
    assert.ok(third.resetMs <= first.resetMs, 'the window keeps its end');
  });

  test('concurrent hits of one key each get their own count', async (context) => {
    const { rateLimits } = current(context).storage;
    const keys = ['a', 'b', 'a', 'a', 'c', 'b', 'a'];
    const hits = await Promise.all(keys.map((key) => rateLimits.hit(key, WINDOW, 120)));
    const countsOf = (key: string) => hits.filter((_, i) => keys[i] === key).map((h) => h.count).sort((x, y) => x - y);
    assert.equal(countsOf('a'), [1, 2, 3, 4], 'concurrent hits of one key each get their own count: hit().count of a');
    assert.equal(countsOf('b'), [1, 2], 'concurrent hits of one key each get their own count: hit().count of b');
    assert.equal(countsOf('c'), [1], 'concurrent hits of one key each get their own count: hit().count of c');
  });

  // Only a caller that can end a window (a clock it controls, or the rows aged on the database) gets this one.
  if (!test.canEndWindows) return;
  test('after the window ends the count starts again at 1 with a full window', async (context) => {
    const open = current(context);
    for (let i = 0; i < 3; i++) await open.storage.rateLimits.hit('k', WINDOW, 120);
    await open.endWindows();
    const hit = await open.storage.rateLimits.hit('k', WINDOW, 120);
    assert.is(hit.count, 1, 'after a window ends, the next hit counts 1: hit().count');
    assert.ok(hit.resetMs > WINDOW - 5000 && hit.resetMs <= WINDOW, `resetMs ${hit.resetMs}`);
  });
}
