/**
 * The halt rule's test against an independent computation: exact binomial tails as rationals (BigInt), for
 * small counts, and the worked example of docs/releases.md.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { binomialUpperTail, excessPValue } from '../../core/releases/binomial-tail.ts';

/** P(X >= k), X ~ Binomial(n, a/b), exactly as a fraction, then divided. */
function exactTail(k: number, n: number, a: bigint, b: bigint): number {
  let choose = 1n;
  let num = 0n;
  for (let x = 0; x <= n; x++) {
    if (x > 0) choose = (choose * BigInt(n - x + 1)) / BigInt(x);
    if (x >= k) num += choose * a ** BigInt(x) * (b - a) ** BigInt(n - x);
  }
  const den = b ** BigInt(n);
  const scale = 10n ** 30n;
  return Number((num * scale) / den) / 1e30;
}

test('binomial upper tails match exact rationals within 1e-9 relative', () => {
  for (
    const [k, n, a, b] of [[0, 5, 1n, 2n], [3, 5, 1n, 2n], [20, 21, 3n, 5n], [10, 60, 1n, 10n], [1, 1, 1n, 3n], [7, 7, 1n, 3n], [40, 200, 3n, 20n]] as const
  ) {
    const want = exactTail(k, n, a, b);
    const got = binomialUpperTail(k, n, Number(a) / Number(b));
    assert.ok(Math.abs(got - want) <= 1e-9 * Math.max(want, 1e-300), `k=${k} n=${n} p=${a}/${b}: ${got} against ${want}`);
  }
  assert.is(binomialUpperTail(6, 5, 0.5), 0);
  assert.is(binomialUpperTail(3, 5, 0), 0);
  assert.is(binomialUpperTail(3, 5, 1), 1);
});

test('the excess test: 20 of 500 against 1 of 1,000 at 3 times is 9 * 0.6^20; equal rates are no evidence', () => {
  assert.ok(Math.abs(excessPValue(20, 500, 1, 1000, 3) / (9 * 0.6 ** 20) - 1) < 1e-9);
  assert.ok(excessPValue(10, 1000, 10, 1000, 3) > 0.5);
  // None before: every reporter must be among the first 50 of 50, each with chance 3/4.
  assert.ok(Math.abs(excessPValue(50, 1000, 0, 1000, 3) / 0.75 ** 50 - 1) < 1e-9);
});

test.run();
