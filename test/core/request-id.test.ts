/**
 * Fresh request ids: version 4 UUIDs in the canonical lower-case form, distinct, across refills of the
 * random pool (256 ids each), with every hex digit in use where the UUID is random.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { randomUuid } from '../../core/http/request-id.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test('ids are distinct version 4 UUIDs across pool refills', () => {
  const ids = Array.from({ length: 1000 }, () => randomUuid());
  for (const id of ids) assert.match(id, UUID);
  assert.is(new Set(ids).size, ids.length);
});

test('every random position takes every hex digit', () => {
  const ids = Array.from({ length: 2000 }, () => randomUuid());
  // Position 14 is the version (always 4), 19 the variant (8 to b), the dashes are fixed.
  for (const at of [0, 7, 9, 15, 20, 24, 35]) {
    const seen = new Set(ids.map((id) => id[at]));
    assert.is(seen.size, 16, `position ${at}`);
  }
  assert.equal(new Set(ids.map((id) => id[19])), new Set(['8', '9', 'a', 'b']));
});

test.run();
