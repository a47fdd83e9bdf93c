/**
 * Contract: secrets are first-write-wins.
 */
import * as assert from './assert.ts';
import { type ContractSuite, current } from './context.ts';

export function secretsContract(test: ContractSuite): void {
  test('a secret is created once: the first stored value wins and create is not called again', async (context) => {
    const { storage } = current(context);
    let calls = 0;
    const create = (value: string) => () => {
      calls++;
      return value;
    };
    assert.is(await storage.secret('voter-secret', create('first')), 'first', 'a secret is created on first use: secret()');
    assert.is(await storage.secret('voter-secret', create('second')), 'first', 'a secret is created once, the first value wins: a second secret()');
    assert.is(calls, 1, 'create is not called again: calls of create');
    assert.is(await storage.secret('other', async () => 'async value'), 'async value', 'create may answer a promise: secret()');
  });
}
