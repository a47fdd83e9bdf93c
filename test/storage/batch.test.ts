/**
 * The group-commit batcher (adapters/sql/batch.ts): who goes in which statement, how many statements run
 * at once, and that no call is answered before its statement returns.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createBatcher } from '../../adapters/sql/batch.ts';

/** A statement the test finishes by hand. */
interface Pending {
  inputs: number[];
  finish(): void;
  fail(error: Error): void;
}

function controlledRun() {
  const started: Pending[] = [];
  const run = (inputs: number[]) =>
    new Promise<number[]>((resolve, reject) => {
      started.push({ inputs, finish: () => resolve(inputs.map((n) => n * 10)), fail: reject });
    });
  return { started, run };
}

const ioTurn = () => new Promise((resolve) => setImmediate(resolve));
/** A finished statement frees its slot a few microtasks later; the next batch then waits for an I/O turn. */
const afterFinish = async () => {
  await ioTurn();
  await ioTurn();
};

test('one statement at a time by default: calls that arrive meanwhile wait and go together', async () => {
  const { started, run } = controlledRun();
  const call = createBatcher(run);
  const first = [call(1), call(2)];
  await ioTurn();
  const later = [call(3), call(4), call(5)];
  await ioTurn();
  assert.equal(started.map((s) => s.inputs), [[1, 2]]);
  started[0]!.finish();
  assert.equal(await Promise.all(first), [10, 20]);
  await afterFinish();
  assert.equal(started.map((s) => s.inputs), [[1, 2], [3, 4, 5]]);
  started[1]!.finish();
  assert.equal(await Promise.all(later), [30, 40, 50]);
});

test('with maxInFlight 2 the calls of the next I/O turn start a second statement at once, and no third', async () => {
  const { started, run } = controlledRun();
  const call = createBatcher(run, { maxInFlight: 2 });
  const first = call(1);
  await ioTurn();
  const second = [call(2), call(3)];
  await ioTurn();
  const third = call(4);
  await ioTurn();
  assert.equal(started.map((s) => s.inputs), [[1], [2, 3]]);
  let answered = false;
  void third.then(() => (answered = true));
  started[1]!.finish();
  assert.equal(await Promise.all(second), [20, 30]);
  await afterFinish();
  assert.equal(started.map((s) => s.inputs), [[1], [2, 3], [4]]);
  assert.is(answered, false);
  started[0]!.finish();
  started[2]!.finish();
  assert.is(await first, 10);
  assert.is(await third, 40);
});

test('a failed statement rejects its own calls only; the next batch still runs', async () => {
  const { started, run } = controlledRun();
  const call = createBatcher(run, { maxBatch: 2 });
  const calls = [call(1), call(2), call(3)];
  await ioTurn();
  started[0]!.fail(new Error('connection reset'));
  const settled = Promise.allSettled(calls);
  await afterFinish();
  started[1]!.finish();
  const outcomes = (await settled).map((o) => (o.status === 'fulfilled' ? o.value : (o.reason as Error).message));
  assert.equal(outcomes, ['connection reset', 'connection reset', 30]);
});

test.run();
