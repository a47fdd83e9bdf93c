/**
 * Usage counts reach the storage on a timer, with no request after them (they waited for the next
 * request of the same instance, so a crash after a quiet spell lost them all), and at stop. The counts
 * come from the app's own tally over memory storage; the timer runs every millisecond here.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createMemoryStorage } from '../../adapters/memory/index.ts';
import { createUsageTally } from '../../core/budgets/usage.ts';
import { writeUsageOnTimer } from '../../server/usage-writer.ts';
import { manualClock } from '../_setup.ts';

const quiet = { info() {}, warn() {}, error() {} };

test('counts are written by the timer after a quiet spell, and what is left at stop', async () => {
  const clock = manualClock();
  const storage = createMemoryStorage({ clock });
  const tally = createUsageTally({ store: storage.usage, clock, logger: quiet, sources: [] });
  const total = async () => (await storage.usage.list(0, 100_000)).reduce((sum, row) => sum + row.count, 0);
  for (let i = 0; i < 50; i++) tally.count('update_check', '2.4.1', null, 'windows');
  assert.is(await total(), 0, 'nothing written from the request path within 10 s');
  let written = () => {};
  const fifty = new Promise<void>((resolve) => (written = resolve));
  const hold = setInterval(() => {}, 60_000);
  const writer = writeUsageOnTimer(async () => {
    await tally.flush();
    if ((await total()) === 50) written();
  }, 1);
  try {
    await fifty;
    assert.is(await total(), 50, 'written with no request after them');
    tally.count('download', '2.4.1', null, 'windows');
  } finally {
    await writer.stop();
    clearInterval(hold);
  }
  assert.is(await total(), 51, 'the last count is written at stop');
});

test.run();
