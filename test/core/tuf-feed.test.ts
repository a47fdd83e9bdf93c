/**
 * The targets of the update files: which releases are listed, their names, and exactly what `custom` holds.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Release } from '../../core/ports/release-store.ts';
import { type FeedOptions, feedTargets, plainSummary } from '../../core/tuf/feed.ts';
import { canonicalJson } from '../../core/tuf/canonical-json.ts';
import { releaseRecord } from '../_update-files.ts';

const test = suite('TUF feed targets');
const T0 = Date.UTC(2026, 0, 1);
const HOUR = 3_600_000;

function release(version: string, fields: Partial<Release> = {}): Release {
  return releaseRecord(version, {
    msiUrl: `https://downloads.example.com/${version}/converter-${version}.msi`,
    publishedAt: T0,
    sha256: version.replace(/\D/g, '').padEnd(64, 'a').slice(0, 64),
    ...fields,
  });
}

const options: FeedOptions = {
  summaryOf: (version) => (version === '2.6.1' ? 'Fixes\tthe\nimport ' : null),
  seedOf: (line) => (line === '2.6' ? '0a0b' : 'ff'),
};
const listed = (releases: Release[]) => Object.values(feedTargets(releases, options)).map((target) => target.custom.version);

test('a release at 100 % is listed with every field of custom, exactly', () => {
  const targets = feedTargets([release('2.6.1', { notesUrl: 'https://www.example.com/notes/2.6.1', critical: true, publishedAt: T0 + 5 })], options);
  assert.equal(targets, {
    'converter-2.6.1.msi': {
      length: 1000,
      hashes: { sha256: '261aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' },
      custom: {
        version: '2.6.1',
        url: 'https://downloads.example.com/2.6.1/converter-2.6.1.msi',
        publishedAt: '2026-01-01T00:00:00.005Z',
        notes: 'https://www.example.com/notes/2.6.1',
        summary: 'Fixes the import',
        critical: true,
        schedule: [{ at: '2026-01-01T00:00:00.005Z', basisPoints: 10000 }],
        haltedAt: null,
        seed: '0a0b',
      },
    },
  });
  assert.not.throws(() => canonicalJson(targets));
});

test('listed: the newest at 100 %, every release above it, and the newest of each older line; not the ones below it on its line', () => {
  const releases = [
    release('1.9.0'),
    release('1.9.2'),
    release('2.5.3'),
    release('2.5.4', { rolloutBasisPoints: 4000 }),
    release('2.6.0'),
    release('2.6.1'),
    release('2.6.2', { rolloutBasisPoints: 2000 }),
    release('2.7.0', { rolloutBasisPoints: 500 }),
  ];
  assert.equal(listed(releases), ['2.7.0', '2.6.2', '2.6.1', '2.5.4', '1.9.2']);
});

test('a plan is a schedule in basis points at each step; it ends at 10000, so it is the floor, while a halted one is listed above the floor with its halt', () => {
  const ramp = { basisPoints: [50, 500, 2500, 10000], everyMs: 24 * HOUR, startAt: T0 };
  const halted = release('2.6.3', {
    ramp: { basisPoints: [500, 5000, 10000], everyMs: HOUR, startAt: T0 },
    rolloutBasisPoints: 500,
    haltedAt: T0 + 90 * 60_000,
  });
  const targets = feedTargets([release('2.6.1'), release('2.6.2', { ramp, rolloutBasisPoints: 50 }), halted], options);
  assert.equal(Object.keys(targets), ['converter-2.6.3.msi', 'converter-2.6.2.msi']);
  assert.equal(targets['converter-2.6.2.msi']!.custom.schedule, [
    { at: '2026-01-01T00:00:00.000Z', basisPoints: 50 },
    { at: '2026-01-02T00:00:00.000Z', basisPoints: 500 },
    { at: '2026-01-03T00:00:00.000Z', basisPoints: 2500 },
    { at: '2026-01-04T00:00:00.000Z', basisPoints: 10000 },
  ]);
  assert.is(targets['converter-2.6.3.msi']!.custom.haltedAt, '2026-01-01T01:30:00.000Z');
  assert.equal(targets['converter-2.6.3.msi']!.custom.schedule.map((step) => step.basisPoints), [500, 5000, 10000]);
});

test('signed at a time: a ramp still under way is listed above the release at 100 % below it, which leaves once the ramp reaches 100 %', () => {
  const releases = [release('2.6.1'), release('2.6.2', { rolloutBasisPoints: 500, ramp: { basisPoints: [500, 10000], everyMs: HOUR, startAt: T0 } })];
  const at = (now: number) => Object.values(feedTargets(releases, options, now)).map((target) => target.custom.version);
  assert.equal(at(T0 + HOUR - 1), ['2.6.2', '2.6.1']);
  assert.equal(at(T0 + HOUR), ['2.6.2']);
});

test('pulled releases and releases without a digest or a size are never listed', () => {
  const releases = [
    release('2.6.0'),
    release('2.6.1', { pulledAt: T0 }),
    release('2.6.2', { rolloutBasisPoints: 1000, sha256: null }),
    release('2.6.3', { rolloutBasisPoints: 1000, size: null }),
    release('2.6.4', { rolloutBasisPoints: 1000 }),
  ];
  assert.equal(listed(releases), ['2.6.4', '2.6.0']);
  assert.equal(listed([release('2.6.1', { pulledAt: T0 })]), []);
});

test('with no release at 100 %, every live one is listed', () => {
  assert.equal(listed([release('2.5.0', { rolloutBasisPoints: 5000 }), release('2.6.0', { rolloutBasisPoints: 1000, haltedAt: T0 })]), ['2.6.0', '2.5.0']);
});

test('names: the installer file name when unique and plain, else installer-{version}.msi, never two alike', () => {
  const releases = [
    release('2.6.0', { msiUrl: 'https://d.example.com/a/setup.msi' }),
    release('2.6.1', { msiUrl: 'https://d.example.com/b/setup.msi', rolloutBasisPoints: 5000 }),
    release('2.6.2', { msiUrl: 'https://d.example.com/c/installer-2.6.0.msi', rolloutBasisPoints: 4000 }),
    release('2.6.3', { msiUrl: 'https://d.example.com/d/my%20setup.msi', rolloutBasisPoints: 3000 }),
    release('2.6.4', { msiUrl: 'https://d.example.com/e/ok_2.6.4.msi?x=1', rolloutBasisPoints: 2000 }),
  ];
  const names = Object.fromEntries(Object.entries(feedTargets(releases, options)).map(([name, target]) => [target.custom.version, name]));
  assert.equal(names, {
    '2.6.0': 'installer-2.6.0.msi',
    '2.6.1': 'installer-2.6.1.msi',
    '2.6.2': 'installer-2.6.2.msi',
    '2.6.3': 'installer-2.6.3.msi',
    '2.6.4': 'ok_2.6.4.msi',
  });
});

test('a summary is one line of plain text, at most 280 characters, and a seed that is not hex is refused', () => {
  assert.is(plainSummary(' a\r\n\u0000b  c '), 'a b c');
  assert.is(plainSummary('\u{1f600}'.repeat(300)), '\u{1f600}'.repeat(280));
  assert.is(plainSummary('x\ud800y'), 'x\ufffdy');
  assert.throws(() => feedTargets([release('2.6.0')], { ...options, seedOf: () => 'xyz' }), /the seed of line 2\.6 is not hex/);
});

test.run();
