/**
 * Contract: when each release reached everyone is recorded once (first write wins) and listed.
 */
import * as assert from './assert.ts';
import { current, type ContractSuite } from './context.ts';

export function shippingContract(test: ContractSuite): void {
  test('the time a release reached everyone is recorded once: a later record keeps the first time', async (context) => {
    const { shipping } = current(context).storage;
    assert.equal(await shipping.reachedEveryone(), []);
    const first = Date.UTC(2026, 10, 1, 9, 30, 0, 123);
    assert.is(await shipping.recordReachedEveryone('2.6.0', first), first);
    assert.is(await shipping.recordReachedEveryone('2.6.0', first + 60_000), first);
    assert.is(await shipping.recordReachedEveryone('2.5.0', first - 1), first - 1);
    const listed = (await shipping.reachedEveryone()).sort((a, b) => a.at - b.at);
    assert.equal(listed, [
      { version: '2.5.0', at: first - 1 },
      { version: '2.6.0', at: first },
    ]);
  });
}
