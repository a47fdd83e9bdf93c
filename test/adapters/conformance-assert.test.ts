/**
 * The storage contract's own assertions (adapters/storage-conformance/assert.ts) judge as uvu/assert did
 * before the contract was published: `equal` agrees with uvu/assert's `equal` (dequal) on every pair below,
 * and a failed check names the rule, what came back and what the rule wants.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as check from '../../adapters/storage-conformance/assert.ts';

/** Whether uvu/assert's `equal` passes. */
function uvuEqual(a: unknown, b: unknown): boolean {
  try {
    assert.equal(a, b);
    return true;
  } catch {
    return false;
  }
}

const PAIRS: [unknown, unknown][] = [
  [1, 1],
  [1, '1'],
  [NaN, NaN],
  [0, -0],
  [null, undefined],
  [null, null],
  ['a', 'a'],
  [{ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 }],
  [{ a: 1 }, { a: 1, b: undefined }],
  [{ a: undefined }, { b: undefined }],
  [[1, [2, { c: 3 }]], [1, [2, { c: 3 }]]],
  [[1, 2], [2, 1]],
  [[], {}],
  [new Date(5), new Date(5)],
  [new Date(5), new Date(6)],
  [/a/g, /a/g],
  [/a/g, /a/i],
  [new Set([1, { a: 1 }]), new Set([{ a: 1 }, 1])],
  [new Set([1]), new Set([2])],
  [new Map([[{ k: 1 }, 'v']]), new Map([[{ k: 1 }, 'v']])],
  [new Map([['k', 1]]), new Map([['k', 2]])],
  [new Uint8Array([1, 2]), new Uint8Array([1, 2])],
  [new Uint8Array([1, 2]), new Uint8Array([1, 3])],
  [Object.create(null) as object, {}],
  [{ id: 1, handledAt: null }, { id: 1, handledAt: null }],
];

test("equal agrees with uvu/assert's equal on every pair", () => {
  assert.equal(
    PAIRS.map(([a, b]) => check.deepEqual(a, b)),
    PAIRS.map(([a, b]) => uvuEqual(a, b)),
  );
});

test('a failed check throws an AssertionError naming the rule, what came back and what the rule wants', () => {
  try {
    check.equal({ voted: true, vote_count: 1 }, { voted: true, vote_count: 2 }, 'the second vote counts: toggleVote()');
    assert.unreachable('equal passed');
  } catch (error) {
    assert.instance(error, check.AssertionError);
    const { message, actual, expected, operator } = error as check.AssertionError;
    assert.equal({ message, actual, expected, operator }, {
      message: 'the second vote counts: toggleVote(): got {"voted":true,"vote_count":1}, expected {"voted":true,"vote_count":2}',
      actual: { voted: true, vote_count: 1 },
      expected: { voted: true, vote_count: 2 },
      operator: 'equal',
    });
  }
  const thrown = (check: () => void) => {
    try {
      check();
    } catch (error) {
      return (error as Error).message;
    }
    return 'passed';
  };
  assert.equal(
    [
      thrown(() => check.is(1, '1', 'a vote counts once: toggleVote().vote_count')),
      thrown(() => check.ok(0, 'ids grow with arrival')),
      thrown(() => check.ok(undefined, 'a pending delivery due at now is claimed: claimDue()')),
      thrown(() => check.match('msg_x', /^msg_[0-9a-f]{32}$/, 'an event id is msg_ and 32 lower-case hex digits: eventId')),
    ],
    [
      'a vote counts once: toggleVote().vote_count: got 1, expected "1"',
      'ids grow with arrival: got 0, expected a truthy value',
      'a pending delivery due at now is claimed: claimDue(): got undefined, expected a truthy value',
      'an event id is msg_ and 32 lower-case hex digits: eventId: got "msg_x", expected text matching /^msg_[0-9a-f]{32}$/',
    ],
  );
  check.match('msg_00000000000000000000000000000000', /^msg_[0-9a-f]{32}$/, 'an event id');
  check.is(NaN, NaN, 'NaN is NaN');
});

test('no check can go without a message that names the rule (by type)', () => {
  // @ts-expect-error: the message is required
  check.ok(1);
  // @ts-expect-error: the message is required
  check.match('a', 'a');
  // @ts-expect-error: the message is required
  check.is(1, 1);
  // @ts-expect-error: the message is required
  check.equal([1], [1]);
});

test.run();
