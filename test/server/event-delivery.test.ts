/**
 * The delivery loop while the outbox cannot be read: one log line a minute with the count of failed
 * ticks, not one a second (a nearly full disk must not fill up with the same warning).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createMemoryStorage } from '../../adapters/memory/index.ts';
import type { Logger } from '../../core/ports/ports.ts';
import { startEventDelivery } from '../../server/event-delivery.ts';

test('a failing outbox is logged once a minute, with how many ticks failed', async () => {
  const storage = createMemoryStorage();
  const clock = {
    t: Date.UTC(2026, 10, 25, 12),
    now() {
      return this.t;
    },
  };
  const lines: unknown[] = [];
  const logger: Logger = { info() {}, warn: (message, fields) => lines.push({ message, ...fields }), error() {} };
  // The outbox refuses every time; the fifth call comes a minute after the first, then it is asked 8 times in all.
  let calls = 0;
  let reached = () => {};
  const eightCalls = new Promise<void>((resolve) => (reached = resolve));
  storage.outbox.claimDue = async () => {
    if (++calls === 5) clock.t += 60_000;
    if (calls === 8) reached();
    throw new Error('the disk reserve is reached');
  };
  // The loop's timer does not hold the process open (unref); this one does, until the test ends.
  const hold = setInterval(() => {}, 60_000);
  const delivery = startEventDelivery(storage, clock, logger, 1);
  await eightCalls;
  await delivery.stop();
  clearInterval(hold);
  assert.equal(lines, [
    { message: 'event delivery could not read the outbox', error: 'the disk reserve is reached', failedTicks: 1 },
    { message: 'event delivery could not read the outbox', error: 'the disk reserve is reached', failedTicks: 4 },
  ]);
});

test.run();
