/**
 * The threat model's figures (docs/releases.md "How many networks a halt takes"): for a release before
 * with 1 and with 5 reporting clients per 1,000 installs, the fewest reporting networks that halt a ramp at
 * 5 % and at 50 % of 20,000 and of 200,000 daily installs, an hour into its first day and at its end, with the
 * default rule. Installs are seen as the hours pass (each checks once a day, at a time of its own), so an hour
 * in, the ramp has seen 1/24 of its day's installs, the release before's first hour counts 1/24 of its first
 * day's, and its reporting clients are those of that hour (rounded). Each figure is decided by `decideHalt`
 * (one network fewer does not halt), and the table in the docs is the one computed here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { decideHalt, DEFAULT_HALT_RULE, haltWindows } from '../../core/releases/halt-rule.ts';
import { publishedRelease } from '../../core/ports/release-store.ts';
import type { UsageCount } from '../../core/ports/store-ports.ts';
import { ROOT } from '../_spawn.ts';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** Both released at midnight UTC, 30 days apart. */
const PUBLISHED = 20_000 * DAY_MS;
const MSI = 'https://downloads.example.com/LegacySheetConverter.msi';
const before = publishedRelease({ version: '2.5.0', msiUrl: MSI, notesUrl: null, rolloutBasisPoints: 10000, publishedAt: PUBLISHED - 30 * DAY_MS });
const ramping = publishedRelease({ version: '2.6.0', msiUrl: MSI, notesUrl: null, rolloutBasisPoints: 500, publishedAt: PUBLISHED });

const installed = (at: number, release: string, count: number): UsageCount => ({
  day: Math.floor(at / DAY_MS),
  kind: 'installed',
  release,
  source: 'none',
  platform: 'windows',
  count,
});

/** Whether `networks` reporting networks (one client each) halt the ramp `hours` into it (1 or 24), the rest as the cell says. */
function halts(daily: number, perThousandBefore: number, share: number, hours: number, networks: number): boolean {
  const windows = haltWindows(ramping, before, '2.4.0', PUBLISHED + hours * HOUR_MS);
  const seen = hours / 24;
  const usage = [installed(PUBLISHED, '2.6.0', Math.round(daily * share * seen)), installed(before.publishedAt, '2.5.0', daily)];
  const reportersBefore = Math.round((daily * perThousandBefore * seen) / 1000);
  const read = { usage, mine: { clients: networks, networks }, before: { clients: reportersBefore, networks: reportersBefore } };
  return decideHalt(ramping, windows, read, DEFAULT_HALT_RULE).halt;
}

/** The fewest reporting networks that halt, checked to be exact: one fewer does not. */
function fewest(daily: number, perThousandBefore: number, share: number, hours: number): number {
  let networks = 1;
  while (!halts(daily, perThousandBefore, share, hours, networks)) networks++;
  assert.not.ok(halts(daily, perThousandBefore, share, hours, networks - 1));
  return networks;
}

/** [daily installs, reporting clients per 1,000 before, share of the ramp, hours into it, networks a halt takes]. */
const TABLE: readonly (readonly [number, number, number, number, number])[] = [
  [20_000, 1, 0.05, 1, 10],
  [20_000, 1, 0.05, 24, 12],
  [20_000, 1, 0.5, 1, 18],
  [20_000, 1, 0.5, 24, 66],
  [20_000, 5, 0.05, 1, 10],
  [20_000, 5, 0.05, 24, 31],
  [20_000, 5, 0.5, 1, 28],
  [20_000, 5, 0.5, 24, 218],
  [200_000, 1, 0.05, 1, 10],
  [200_000, 1, 0.05, 24, 51],
  [200_000, 1, 0.5, 1, 38],
  [200_000, 1, 0.5, 24, 393],
  [200_000, 5, 0.05, 1, 18],
  [200_000, 5, 0.05, 24, 194],
  [200_000, 5, 0.5, 1, 110],
  [200_000, 5, 0.5, 24, 1698],
];

test('each figure: the fewest reporting networks that halt, one fewer does not', () => {
  for (const [daily, rate, share, hours, networks] of TABLE) {
    assert.is(fewest(daily, rate, share, hours), networks, `${daily} daily, ${rate} per 1,000 before, ${share * 100} %, ${hours} h in`);
  }
});

test("docs/releases.md's table holds the same figures", () => {
  const docs = readFileSync(join(ROOT, 'docs/releases.md'), 'utf8');
  const row = (daily: number, rate: number) =>
    new RegExp(`^\\| ${daily.toLocaleString('en-US')} \\| ${rate} per 1,000 \\| ([\\d,]+) \\| ([\\d,]+) \\| ([\\d,]+) \\| ([\\d,]+) \\|$`, 'm');
  for (const daily of [20_000, 200_000]) {
    for (const rate of [1, 5]) {
      const found = row(daily, rate).exec(docs);
      assert.ok(found, `no row for ${daily} daily installs, ${rate} per 1,000 before`);
      const expected = TABLE.filter(([d, r]) => d === daily && r === rate).map(([, , , , networks]) => networks.toLocaleString('en-US'));
      assert.equal(found.slice(1, 5), expected);
    }
  }
});

test.run();
