/**
 * The threat model's figures for apps on the update files (docs/releases.md "Two kinds of installs, never
 * mixed"): the forged installs a day of a ramping release at 5 % that stop a halt a regression reported from
 * so many networks would make at the end of its first day (both releases published at midnight UTC, so a
 * day's installs are read whole on both sides), with the default rule, and the addresses that takes by
 * install id (10 a version and day each, INSTALLS_PER_CLIENT) and by address (1 each). Each figure is decided
 * by `decideHalt` (one forged install fewer still halts), and the docs' table is the one computed here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { decideHalt, DEFAULT_HALT_RULE, haltWindows } from '../../core/releases/halt-rule.ts';
import { INSTALLS_PER_CLIENT } from '../../core/releases/install-figures.ts';
import { publishedRelease } from '../../core/ports/release-store.ts';
import { ROOT } from '../_spawn.ts';

const DAY_MS = 86_400_000;
const PUBLISHED = 20_000 * DAY_MS;
const MSI = 'https://downloads.example.com/LegacySheetConverter.msi';
const before = publishedRelease({ version: '2.5.0', msiUrl: MSI, notesUrl: null, rolloutBasisPoints: 10000, publishedAt: PUBLISHED - 30 * DAY_MS });
const ramping = publishedRelease({ version: '2.6.0', msiUrl: MSI, notesUrl: null, rolloutBasisPoints: 500, publishedAt: PUBLISHED });
const SHARE = 0.05;

/** Whether `networks` reporting networks halt the ramp at 5 % of `daily`, with `forged` installs of it added. */
function halts(daily: number, perThousandBefore: number, networks: number, forged: number): boolean {
  const windows = haltWindows(ramping, before, '2.4.0', PUBLISHED + DAY_MS);
  const row = (from: number, release: string, count: number) => ({
    day: Math.floor(from / DAY_MS),
    kind: 'installed' as const,
    release,
    source: 'none',
    platform: 'windows' as const,
    count,
  });
  const usage = [row(windows.mine.from, '2.6.0', daily * SHARE + forged), row(windows.before.from, '2.5.0', daily)];
  const reportersBefore = (daily * perThousandBefore) / 1000;
  const read = { usage, mine: { clients: networks, networks }, before: { clients: reportersBefore, networks: reportersBefore } };
  return decideHalt(ramping, windows, read, DEFAULT_HALT_RULE).halt;
}

/** The fewest forged installs that stop the halt, checked to be exact: one fewer still halts. */
function fewestForged(daily: number, perThousandBefore: number, networks: number): number {
  assert.ok(halts(daily, perThousandBefore, networks, 0), 'the regression halts with no forged install');
  let low = 0, high = 1;
  while (halts(daily, perThousandBefore, networks, high)) high *= 2;
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (halts(daily, perThousandBefore, networks, mid)) low = mid;
    else high = mid;
  }
  assert.ok(halts(daily, perThousandBefore, networks, high - 1));
  return high;
}

/** [daily installs, reporting installs per 1,000 before, reporting networks, forged installs a day that stop the halt]. */
const TABLE: readonly (readonly [number, number, number, number])[] = [
  [20_000, 1, 20, 1347],
  [20_000, 1, 30, 2991],
  [200_000, 1, 100, 12_469],
];

const fmt = (n: number) => n.toLocaleString('en-US');

test('each figure: the fewest forged installs a day that stop the halt, one fewer does not', () => {
  for (const [daily, rate, networks, forged] of TABLE) assert.is(fewestForged(daily, rate, networks), forged, `${daily} daily, ${networks} networks`);
});

test("docs/releases.md's table holds the same figures, and the addresses each kind takes", () => {
  const docs = readFileSync(join(ROOT, 'docs/releases.md'), 'utf8');
  for (const [daily, rate, networks, forged] of TABLE) {
    const row = `  | ${fmt(daily)} | ${rate} per 1,000 | ${networks} | ${fmt(forged)} | ${fmt(Math.ceil(forged / INSTALLS_PER_CLIENT))} | ${fmt(forged)} |`;
    assert.ok(docs.includes(`\n${row}\n`), `no row ${row}`);
  }
});

test.run();
