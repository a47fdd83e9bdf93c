/**
 * The threat model's figures (docs/releases.md "How many networks a halt takes"): for a release before
 * with 1 and with 5 reporting clients per 1,000 installs, the fewest reporting networks that halt a ramp at
 * 5 % and at 50 % of 20,000 and of 200,000 daily installs, on its first day, with the default rule. Each
 * figure is decided by `decideHalt` (one network fewer does not halt), and the table in the docs is the one
 * computed here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { decideHalt, DEFAULT_HALT_RULE, haltWindows } from '../../core/releases/halt-rule.ts';
import { publishedRelease } from '../../core/ports/release-store.ts';
import { ROOT } from '../_spawn.ts';

const DAY_MS = 86_400_000;
const DAY = 20_000;
const PUBLISHED = DAY * DAY_MS + 3_600_000;
const MSI = 'https://downloads.example.com/LegacySheetConverter.msi';
const before = publishedRelease({ version: '2.5.0', msiUrl: MSI, notesUrl: null, rolloutBasisPoints: 10000, publishedAt: PUBLISHED - 30 * DAY_MS });
const ramping = publishedRelease({ version: '2.6.0', msiUrl: MSI, notesUrl: null, rolloutBasisPoints: 500, publishedAt: PUBLISHED });

/** Whether `networks` reporting networks (one client each) halt the ramp, the rest as the cell says. */
function halts(daily: number, perThousandBefore: number, share: number, networks: number): boolean {
  const now = PUBLISHED + 3_600_000;
  const windows = haltWindows(ramping, before, '2.4.0', now);
  const reportersBefore = (daily * perThousandBefore) / 1000;
  const usage = [
    {
      day: Math.floor(windows.mine.from / DAY_MS),
      kind: 'installed' as const,
      release: '2.6.0',
      source: 'none',
      platform: 'windows' as const,
      count: daily * share,
    },
    { day: Math.floor(windows.before.from / DAY_MS), kind: 'installed' as const, release: '2.5.0', source: 'none', platform: 'windows' as const, count: daily },
  ];
  const read = { usage, mine: { clients: networks, networks }, before: { clients: reportersBefore, networks: reportersBefore } };
  return decideHalt(ramping, windows, read, DEFAULT_HALT_RULE).halt;
}

/** The fewest reporting networks that halt, checked to be exact: one fewer does not. */
function fewest(daily: number, perThousandBefore: number, share: number): number {
  let networks = 1;
  while (!halts(daily, perThousandBefore, share, networks)) networks++;
  assert.not.ok(halts(daily, perThousandBefore, share, networks - 1));
  return networks;
}

/** [daily installs, reporting clients per 1,000 before, share of the ramp, networks a halt takes]. */
const TABLE: readonly (readonly [number, number, number, number])[] = [
  [20_000, 1, 0.05, 12],
  [20_000, 1, 0.5, 66],
  [20_000, 5, 0.05, 31],
  [20_000, 5, 0.5, 218],
  [200_000, 1, 0.05, 51],
  [200_000, 1, 0.5, 393],
  [200_000, 5, 0.05, 194],
  [200_000, 5, 0.5, 1698],
];

test('each figure: the fewest reporting networks that halt, one fewer does not', () => {
  for (const [daily, rate, share, networks] of TABLE) {
    assert.is(fewest(daily, rate, share), networks, `${daily} daily, ${rate} per 1,000 before, ${share * 100} %`);
  }
});

test("docs/releases.md's table holds the same figures", () => {
  const docs = readFileSync(join(ROOT, 'docs/releases.md'), 'utf8');
  const row = (daily: number, rate: number) => new RegExp(`^\\| ${daily.toLocaleString('en-US')} \\| ${rate} per 1,000 \\| ([\\d,]+) \\| ([\\d,]+) \\|$`, 'm');
  for (const daily of [20_000, 200_000]) {
    for (const rate of [1, 5]) {
      const found = row(daily, rate).exec(docs);
      assert.ok(found, `no row for ${daily} daily installs, ${rate} per 1,000 before`);
      const expected = TABLE.filter(([d, r]) => d === daily && r === rate).map(([, , , networks]) => networks.toLocaleString('en-US'));
      assert.equal([found[1], found[2]], expected);
    }
  }
});

test.run();
