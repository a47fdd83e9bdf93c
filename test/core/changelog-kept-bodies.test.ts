/**
 * The changelog's kept bodies (core/changelog/kept-bodies.ts) hold at most their cap in bytes, the least
 * recently asked going first (issue 53: they were kept per `since` text, 32 bodies of any size). The flood the
 * issue measured, 300 releases with 600 shipped items of long descriptions and 64 and more distinct `since`
 * values, is replayed here on the real pages and feed writers: the kept bytes never pass KEPT_BYTES, and the
 * distinct `since` values make no more bodies than there are releases.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { ChangelogEntry } from '../../core/changelog/entries.ts';
import { atomFeed } from '../../core/changelog/atom.ts';
import { type FeedHead, jsonFeed } from '../../core/changelog/json-feed.ts';
import { createKeptBodies, KEPT_BODY_OVERHEAD } from '../../core/changelog/kept-bodies.ts';
import { CHANGELOG_PAGE_SIZE, changelogPage, normalisePage, pageKey } from '../../core/changelog/pages.ts';
import { type Representation, representation } from '../../core/http/conditional.ts';
import { KEPT_BYTES } from '../../core/operations/changelog.ts';

const test = suite('changelog kept bodies');
const encoder = new TextEncoder();
const body = (bytes: number): Promise<Representation> => representation(new Uint8Array(bytes), null);

test('the kept bytes never pass the cap; the least recently asked body goes first', async () => {
  const kept = createKeptBodies(12_000);
  let made = 0;
  const make = (bytes: number) => () => {
    made++;
    return body(bytes);
  };
  for (const key of ['a', 'b', 'c']) await kept.body(key, make(3000));
  assert.is(kept.bytes, 3 * (3000 + KEPT_BODY_OVERHEAD));
  await kept.body('a', make(3000));
  assert.is(made, 3, 'a was kept');
  // d passes the cap: b, asked least recently, goes.
  await kept.body('d', make(3000));
  assert.is(kept.bytes, 3 * (3000 + KEPT_BODY_OVERHEAD));
  assert.is(kept.size, 3);
  await kept.body('a', make(3000));
  await kept.body('c', make(3000));
  await kept.body('d', make(3000));
  assert.is(made, 4);
  await kept.body('b', make(3000));
  assert.is(made, 5, 'b was made again');
});

test('a body over the cap alone is served, not kept; a failed one is not kept; clear forgets all', async () => {
  const kept = createKeptBodies(10_000);
  await kept.body('small', () => body(100));
  const big = await kept.body('big', () => body(20_000));
  assert.is(big.body.byteLength, 20_000);
  assert.is(kept.size, 0, 'the big body pushed the small one out, then went itself');
  assert.is(kept.bytes, 0);
  await kept.body('fails', () => Promise.reject(new Error('hash failed'))).catch(() => {});
  assert.is(kept.size, 0);
  await kept.body('x', () => body(100));
  kept.clear();
  assert.equal([kept.size, kept.bytes], [0, 0]);
  // A body made before a clear is not counted after it.
  let resolve!: (value: Representation) => void;
  const late = kept.body('late', () => new Promise((done) => (resolve = done)));
  kept.clear();
  resolve(await body(500));
  await late;
  assert.equal([kept.size, kept.bytes], [0, 0]);
});

/** 300 releases 1.0.0 to 1.0.598 (even builds), two shipped items each with a 2,000-character description. */
function bigChangelog(): ChangelogEntry[] {
  const entries: ChangelogEntry[] = [];
  for (let i = 299; i >= 0; i--) {
    entries.push({
      version: `1.0.${2 * i}`,
      reachedAt: Date.UTC(2026, 0, 1) + i * 60_000,
      publishedAt: Date.UTC(2025, 11, 1) + i * 60_000,
      notesUrl: `https://www.example.com/releases/1.0.${2 * i}`,
      critical: false,
      features: [1, 2].map((n) => ({ id: 2 * i + n, title: `Item ${2 * i + n} <of> "many"`, description: `${i} & ${'x'.repeat(1990)}` })),
    });
  }
  return entries;
}

const HEAD: FeedHead = {
  product: 'Legacy Sheet Converter',
  feedUrl: 'http://localhost:8080/api/v1/changelog',
  jsonFeedUrl: 'http://localhost:8080/api/v1/changelog',
};

test('a flood of distinct since values keeps at most KEPT_BYTES, on the real pages of a 300-release changelog', async () => {
  const all = bigChangelog();
  for (
    const write of [
      (page: Parameters<typeof jsonFeed>[1]) => JSON.stringify(jsonFeed(HEAD, page)),
      (page: Parameters<typeof atomFeed>[1]) => atomFeed(HEAD, page),
    ]
  ) {
    const kept = createKeptBodies(KEPT_BYTES);
    const keys = new Set<string>();
    let made = 0;
    let largest = 0;
    for (let i = 0; i < 1200; i++) {
      // 1,200 distinct values: every build 0 to 599 and a fourth field on each.
      const since = i % 2 === 0 ? `1.0.${i / 2}` : `1.0.${(i - 1) / 2}.${i}`;
      const page = normalisePage(all, { since, before: null, installed: null });
      keys.add(pageKey(page));
      const answer = await kept.body(pageKey(page), () => {
        made++;
        const written = changelogPage(all, page);
        assert.ok(written.entries.length <= CHANGELOG_PAGE_SIZE);
        return representation(encoder.encode(write(written)), null);
      });
      largest = Math.max(largest, answer.body.byteLength);
      assert.ok(kept.bytes <= KEPT_BYTES, `${kept.bytes} bytes kept after ${i + 1} values`);
    }
    assert.is(keys.size, 300, 'each since normalised onto one of the 300 releases');
    assert.is(made, 300, 'the values of one release share its body while it is kept');
    // A page of 50 such releases is a few hundred KiB; the whole changelog as one body was 14 times that.
    const whole = encoder.encode(write({ since: null, before: null, installed: null, entries: all, next: null })).byteLength;
    assert.ok(largest * 5 < whole, `${largest} of ${whole}`);
    assert.ok(largest * 2 < KEPT_BYTES);
  }
});

test.run();
