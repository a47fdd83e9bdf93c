/**
 * docs/updates.md "The update files" against the code (issue 54): the lifetimes and the caching headers it
 * states are those the publisher and the route use, the fields of its `custom` table are those a target
 * carries, its worked example's bucket is cohortBucket's, its C# rule is the package's (bucket < basis
 * points, a step's edge), and its canonical JSON escapes what canonicalJson escapes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { UpdateFile } from '../../core/ports/update-files.ts';
import { canonicalJson } from '../../core/tuf/canonical-json.ts';
import { chooseTarget, cohortBucket, installIdOk, TIMESTAMP_LIFETIME_MS } from '../../core/tuf/cohort.ts';
import { feedTargets, type ReleaseTarget } from '../../core/tuf/feed.ts';
import { LIFETIMES } from '../../core/updates/publish-plan.ts';
import { DEFAULT_TIMESTAMP_MAX_AGE, IMMUTABLE } from '../../core/updates/files-route.ts';
import { bodyText, coreRequest, createTestApp } from '../_setup.ts';
import { ROOT } from '../_spawn.ts';
import { releaseRecord, storedFile } from '../_update-files.ts';

const updates = readFileSync(join(ROOT, 'docs/updates.md'), 'utf8');
const section = updates.slice(updates.indexOf('## The update files'), updates.indexOf("## What's new after an update"));
const flat = section.replace(/\s+/g, ' ');
const HOUR = 3_600_000;

/** The rows of the table that follows a `### title`, as cells. */
function table(title: string): string[][] {
  const start = section.indexOf(`### ${title}\n`);
  assert.ok(start >= 0, `no section "${title}"`);
  const lines = section.slice(start).split('\n');
  const first = lines.findIndex((line) => line.startsWith('|'));
  const rows: string[][] = [];
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(line.split('|').slice(1, -1).map((cell) => cell.trim()));
  }
  return rows;
}

test('the section sits before "What\'s new after an update", under the anchor the code links', () => {
  assert.ok(updates.indexOf('\n## The update files\n') > 0);
  assert.ok(updates.indexOf('\n## The update files\n') < updates.indexOf("\n## What's new after an update\n"));
  assert.match(readFileSync(join(ROOT, 'docs/configuration.md'), 'utf8'), 'updates.md#the-update-files');
});

test("the lifetimes table: the publisher's lifetimes, and the timestamp's the app's rule subtracts", () => {
  const rows = table('Lifetimes');
  const hours = (cell: string) => {
    const m = /\*\*(\d+) (hours|days?)\*\*/.exec(cell);
    assert.ok(m, cell);
    return Number(m[1]) * (m[2] === 'hours' ? HOUR : 24 * HOUR);
  };
  assert.is(rows[0]![0], '`timestamp.json`');
  assert.is(hours(rows[0]![1]!), LIFETIMES.timestamp.validMs);
  assert.is(hours(rows[0]![2]!), LIFETIMES.timestamp.renewBeforeMs);
  assert.match(rows[1]![0]!, '`{n}.snapshot.json`, `{n}.targets.json`');
  for (const role of ['snapshot', 'targets'] as const) {
    assert.is(hours(rows[1]![1]!), LIFETIMES[role].validMs);
    assert.is(hours(rows[1]![2]!), LIFETIMES[role].renewBeforeMs);
  }
  assert.is(TIMESTAMP_LIFETIME_MS, LIFETIMES.timestamp.validMs);
  assert.match(flat, '`expires` less 24 hours');
  assert.match(section, 'public static readonly TimeSpan TimestampLifetime = TimeSpan.FromHours(24);');
  assert.match(flat, `at most ${LIFETIMES.timestamp.renewBeforeMs / HOUR} hours ago`);
});

test("the files table's Cache-Control values are the route's answers; a ?fresh= query string is the same file", async () => {
  const rows = new Map(table('The files').map(([path = '', , cache = '']) => [path, cache]));
  const sha = 'ab'.repeat(32);
  const stored = (role: UpdateFile['role'], version: number, signed: Record<string, unknown> = {}) => storedFile(role, version, signed);
  const msi = { 'x.msi': { length: 1, hashes: { sha256: sha }, custom: { url: 'https://downloads.example.com/x.msi' } } };
  const { app, storage } = await createTestApp();
  await storage.change(async (tx) => {
    for (const file of [stored('root', 1), stored('timestamp', 1), stored('snapshot', 1), stored('targets', 1, { targets: msi })]) {
      assert.ok(await tx.updateFiles.putUpdateFile(file));
    }
  });
  await app.refreshReleases();
  const get = async (path: string, query?: string) => app.handle(coreRequest({ path: `/updates/stable/${path}`, query }));
  const cacheOf = async (path: string) => String((await get(path)).headers['cache-control']);
  assert.match(rows.get('`timestamp.json`')!, `\`public, max-age=${DEFAULT_TIMESTAMP_MAX_AGE}\``);
  assert.is(await cacheOf('timestamp.json'), `public, max-age=${DEFAULT_TIMESTAMP_MAX_AGE}`);
  for (const name of ['`{n}.root.json`', '`{n}.snapshot.json`', '`{n}.targets.json`']) assert.is(rows.get(name), `\`${IMMUTABLE}\``, name);
  for (const path of ['1.root.json', '1.snapshot.json', '1.targets.json']) assert.is(await cacheOf(path), IMMUTABLE, path);
  assert.is(rows.get('`targets/{sha256}.{name}`'), `\`${await cacheOf(`targets/${sha}.x.msi`)}\``);
  const fresh = await get('timestamp.json', 'fresh=3f9c2a');
  assert.is(fresh.status, 200);
  assert.is(bodyText(fresh), bodyText(await get('timestamp.json')));
  assert.match(flat, 'with `Cache-Control: no-cache` and a unique query string (`?fresh=<random>`)');
});

const release = releaseRecord;

test("the custom table lists exactly the fields a target's custom carries", () => {
  const fields = table('What a target carries').map(([field = '']) => field.replace(/`/g, ''));
  const targets = feedTargets([release('2.7.0')], { summaryOf: () => null, seedOf: () => '0a' });
  assert.equal(fields, Object.keys(Object.values(targets)[0]!.custom));
});

test("the worked example: its install id is 16 bytes, and its bucket is cohortBucket's, on the ramp's edge as the doc says", async () => {
  const example = /seed `([0-9a-f]+)`, install id `([A-Za-z0-9_-]+)` \(the bytes 0 to 15\), bucket \*\*(\d+)\*\*/.exec(flat);
  assert.ok(example, 'the worked example is not where the test reads it');
  const [, seed, id, bucket] = example;
  assert.ok(installIdOk(id!));
  assert.equal([...Buffer.from(id!, 'base64url')], Array.from({ length: 16 }, (_, i) => i));
  assert.is(await cohortBucket(seed!, id!), Number(bucket));
  // "in a step of 5000 basis points, not in one of <bucket>": in the ramp iff bucket < basis points.
  assert.match(flat, `in a step of 5000 basis points, not in one of ${bucket}`);
  const at = Date.UTC(2026, 0, 1);
  const offered = async (basisPoints: number) => {
    const target: ReleaseTarget = {
      length: 1,
      hashes: { sha256: 'cd'.repeat(32) },
      custom: {
        version: '2.7.0',
        url: 'u',
        publishedAt: '',
        notes: null,
        summary: '',
        critical: false,
        schedule: [{ at: new Date(at).toISOString(), basisPoints }],
        haltedAt: null,
        seed: seed!,
      },
    };
    return (await chooseTarget({ 'x.msi': target }, '2.6.0', id!, at)) !== null;
  };
  assert.is(await offered(5000), true);
  assert.is(await offered(Number(bucket)), false);
  assert.is(await offered(Number(bucket) + 1), true);
});

test("the C# rule is the package's: its formula, its bucket, its order of checks", () => {
  assert.match(flat, '`bucket = uint64_be(SHA-256(seed bytes || UTF-8(install id))[0..8]) mod 10000`');
  assert.match(flat, 'in the ramp iff `bucket < basisPoints`');
  assert.match(section, 'return (int)(BinaryPrimitives.ReadUInt64BigEndian(digest) % 10000);');
  assert.match(section, '.Where(x => Bucket(x.Custom.GetProperty("seed").GetString()!, installId) < BasisPointsAt(x.Custom, t))');
  assert.match(section, "Convert.ToBase64String(RandomNumberGenerator.GetBytes(16)).TrimEnd('=').Replace('+', '-').Replace('/', '_')");
  // Root walk, then timestamp, snapshot and targets, each by its consistent-snapshot name.
  const order = ['$"{n}.root.json"', '"timestamp.json"', '$"{snapVersion}.snapshot.json"', '$"{targVersion}.targets.json"'].map((s) => section.indexOf(s));
  assert.ok(order.every((i, k) => i > 0 && (k === 0 || i > order[k - 1]!)), String(order));
});

test('the C# canonical JSON escapes what canonicalJson escapes: \\ and " only, keys by UTF-16 code unit', () => {
  assert.match(section, '.OrderBy(p => p.Name, StringComparer.Ordinal)');
  assert.match(section, 'text.Replace("\\\\", "\\\\\\\\").Replace("\\"", "\\\\\\"")');
  assert.is(canonicalJson({ b: 'a"b\\c é €', a: [1, true, null], B: {}, 'é': 0 }), '{"B":{},"a":[1,true,null],"b":"a\\"b\\\\c é €","é":0}');
  assert.throws(() => canonicalJson({ a: 1.5 }));
});

test.run();
