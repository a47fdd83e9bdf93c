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
  const tally = createUsageTally({ store: storage.usage, clock, logger: quiet, sources: [], clientHash: (key) => key });
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

test('a burst of new clients is hashed and written a thousand at a time, each counted once', async () => {
  const clock = manualClock();
  const storage = createMemoryStorage({ clock });
  const slices: number[] = [];
  const store = {
    ...storage.usage,
    addSightings: (batch: Parameters<typeof storage.usage.addSightings>[0]) => (slices.push(batch.length), storage.usage.addSightings(batch)),
  };
  const tally = createUsageTally({ store, clock, logger: quiet, sources: [], clientHash: (key) => `h:${key}` });
  for (let i = 0; i < 2500; i++) tally.installed('2.4.1', `10.0.${Math.floor(i / 250)}.${i % 250}`, 'windows');
  for (let i = 0; i < 100; i++) tally.installed('2.4.1', '10.0.0.0', 'windows');
  await tally.flush();
  assert.equal(slices, [1000, 1000, 500]);
  const installs = (await storage.usage.list(0, 100_000)).filter((row) => row.kind === 'installed');
  assert.equal(installs.map((row) => [row.release, row.count]), [['2.4.1', 2500]]);
});

test('counts on either side of UTC midnight are written under their own days, by label', async () => {
  const clock = manualClock(Date.UTC(2026, 10, 26, 23, 59, 59));
  const storage = createMemoryStorage({ clock });
  const tally = createUsageTally({ store: storage.usage, clock, logger: quiet, sources: ['website'], clientHash: (key) => key });
  tally.count('update_check', '2.4.1', null, 'windows');
  tally.count('download', '2.4.1', 'website', 'other');
  tally.count('download', '2.4.1', 'mailing', 'other');
  clock.advance(2_000);
  tally.count('update_check', '2.4.1', null, 'windows');
  tally.count('update_check', '2.5.0', null, 'windows');
  await tally.flush();
  const day = Math.floor(Date.UTC(2026, 10, 26) / 86_400_000);
  const rows = (await storage.usage.list(day, day + 1)).map((r) => `${r.day - day} ${r.kind} ${r.release} ${r.source} ${r.platform} ${r.count}`).sort();
  assert.equal(rows, [
    '0 download 2.4.1 other other 1',
    '0 download 2.4.1 website other 1',
    '0 update_check 2.4.1 none windows 1',
    '1 update_check 2.4.1 none windows 1',
    '1 update_check 2.5.0 none windows 1',
  ]);
  assert.equal(tally.totals('update_check'), [
    [{ release: '2.4.1', source: 'none', platform: 'windows' }, 2],
    [{ release: '2.5.0', source: 'none', platform: 'windows' }, 1],
  ]);
});

test.run();
