/**
 * docs/client.md gives the bundle sizes scripts/client-size.ts measures from the packed package, as a user
 * builds a page, and a page bound to getPricing only is smaller than the whole client.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { measureClient } from '../../scripts/client-size.ts';
import { ROOT } from '../_spawn.ts';

const sizes = await measureClient();

test('docs/client.md states each page size within 10% of the measured one', () => {
  const doc = readFileSync(join(ROOT, 'docs/client.md'), 'utf8');
  for (const [page, size] of Object.entries(sizes)) {
    const row = new RegExp(`^\\| ${page} \\| ([\\d.]+) KiB \\| ([\\d.]+) KiB \\|$`, 'm').exec(doc);
    assert.ok(row, `docs/client.md has no size row for "${page}"`);
    const [minified, gzipped] = [Number(row[1]) * 1024, Number(row[2]) * 1024];
    assert.ok(
      Math.abs(minified - size.minified) <= size.minified * 0.1,
      `${page}: ${row[1]} KiB minified in the docs, ${(size.minified / 1024).toFixed(1)} measured`,
    );
    assert.ok(
      Math.abs(gzipped - size.gzipped) <= size.gzipped * 0.1,
      `${page}: ${row[2]} KiB gzipped in the docs, ${(size.gzipped / 1024).toFixed(1)} measured`,
    );
  }
});

test('the pricing-only page leaves out the other methods and is smaller than the whole client', () => {
  const { code } = sizes['pricing only'];
  assert.ok(code.includes('licensePriceDisplay'), 'the pricing schema is in');
  assert.ok(sizes['pricing only'].minified < sizes.whole.minified * 0.9, 'at least a tenth smaller');
  for (const method of ['toggleRoadmapVote', 'getCheckoutStatus', 'submitFeedback']) {
    assert.not.ok(code.includes(method), `${method} is bundled`);
    assert.ok(sizes.whole.code.includes(method), `the whole client has ${method}`);
  }
});

test('the client bundles none of the server: no operation, router or error catalogue', () => {
  for (const server of ['No checkout session has this session_id.', 'itty', 'Retry later; if the problem persists', 'Stripe-Signature']) {
    assert.not.ok(sizes.whole.code.includes(server), `${server} is bundled`);
  }
});

test.run();
