/**
 * The tier table (scripts/test-tiers.ts): every test file lands in exactly one tier, every entry names a
 * file that exists, and no file entry repeats its folder's tier.
 */
import { relative } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { findTestFiles, type Tier, TIER_TABLE, tierEntry, tierOf, TIERS } from '../../scripts/test-tiers.ts';

const testDir = new URL('..', import.meta.url).pathname;
const files = findTestFiles(testDir).map((file) => relative(testDir, file));
const tiers = suite('test tiers');

tiers('every test file has exactly one tier, and the tiers together hold every file once', () => {
  const byTier = new Map<Tier, string[]>(TIERS.map((tier) => [tier, []]));
  for (const file of files) byTier.get(tierOf(file))!.push(file);
  const placed = [...byTier.values()].flat();
  assert.is(placed.length, files.length);
  assert.is(new Set(placed).size, files.length);
  for (const tier of TIERS) assert.ok(byTier.get(tier)!.length > 0, `the ${tier} tier holds no file`);
});

tiers('every entry of the table names a test file that exists', () => {
  const dead = Object.keys(TIER_TABLE).filter((entry) => !files.some((file) => tierEntry(file).entry === entry));
  assert.equal(dead, [], `entries that decide no file's tier: ${dead.join(', ')}`);
});

tiers('a file entry differs from the tier its folder would give', () => {
  const redundant = Object.keys(TIER_TABLE).filter((entry) => {
    if (entry.endsWith('/')) return false;
    const folder = tierEntry(entry.slice(0, entry.lastIndexOf('/') + 1) + '\0');
    return folder.tier === TIER_TABLE[entry];
  });
  assert.equal(redundant, [], `file entries that repeat their folder's tier: ${redundant.join(', ')}`);
});

tiers('the longest entry wins; a file in no listed folder is e2e', () => {
  assert.equal(tierEntry('core/decimal.test.ts'), { tier: 'unit', entry: 'core/' });
  assert.equal(tierEntry('core/release-ramp.test.ts'), { tier: 'storage', entry: 'core/release-ramp.test.ts' });
  assert.equal(tierEntry('a-new-folder/thing.test.ts'), { tier: 'e2e', entry: null });
  assert.equal(tierEntry('core'), { tier: 'e2e', entry: null });
});

tiers.run();
