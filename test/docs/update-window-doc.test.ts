/**
 * docs/licensing.md "Which releases a key covers" against the code (issue 56): its worked example's windows
 * and every verdict of its table are what the package's functions (converter-site-api/updates) give, and
 * the functions it names are the ones the package exports.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as updates from '../../core/updates-client.ts';
import { latestUpdatesUntil, releaseVerdict, updatesUntil, updateTerms } from '../../core/updates-client.ts';
import { ROOT } from '../_spawn.ts';

const licensing = readFileSync(join(ROOT, 'docs/licensing.md'), 'utf8');
const section = licensing.slice(licensing.indexOf('## Which releases a key covers'), licensing.indexOf('## A buyer who lost the key'));

const WORDS = { covered: 'covered', fallback_bug_fix: 'fallback bug fix', paid_upgrade: 'paid upgrade' } as const;

test("the worked example's windows and each verdict of its table are the functions'", () => {
  const first = updatesUntil('2026-11-21', 365)!;
  const second = updatesUntil('2027-06-01', 365)!;
  assert.is(new Date(first).toISOString(), '2027-11-21T00:00:00.000Z');
  assert.is(new Date(second).toISOString(), '2028-05-31T00:00:00.000Z');
  assert.match(section, 'so `updatesUntil` 2027-11-21T00:00:00Z');
  assert.match(section, '365 days (2028-05-31T00:00:00Z;');
  const rows = section.split('\n').filter((line) => /^\| \d+\.\d+\.\d+ \|/.test(line)).map((line) => line.split('|').slice(1, -1).map((cell) => cell.trim()));
  assert.is(rows.length, 7);
  const releases = rows.map(([version, published]) => ({ version: version!, publishedAt: Date.parse(`${published}T09:00:00Z`) }));
  const one = updateTerms(first, releases);
  const both = updateTerms(latestUpdatesUntil([first, second]), releases);
  for (const [i, row] of rows.entries()) {
    const release = releases[i]!;
    assert.ok(row[2]!.startsWith(WORDS[releaseVerdict(release, one).verdict]), `${release.version}, the first key: ${row[2]}`);
    assert.ok(row[3]!.startsWith(WORDS[releaseVerdict(release, both).verdict]), `${release.version}, both keys: ${row[3]}`);
    if (release.version === one.newestCovered) assert.match(row[2]!, `fallback line ${one.fallbackLine}`);
    if (release.version === both.newestCovered) assert.match(row[3]!, `fallback line ${both.fallbackLine}`);
  }
});

test('the functions the section names are exported by converter-site-api/updates', () => {
  const named = /shipped as functions of\s+`converter-site-api\/updates`: ([^;]+);/.exec(section.replace(/\s+/g, ' '))![1]!;
  const names = [...named.matchAll(/`(\w+)`/g)].map((m) => m[1]!);
  assert.equal(names, ['issueDayOf', 'updatesUntil', 'latestUpdatesUntil', 'updateTerms', 'releaseVerdict', 'mayInstall']);
  for (const name of names) assert.type((updates as Record<string, unknown>)[name], 'function', name);
});

test.run();
