import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fromBase64Url, toBase64Url } from '../../core/licensing/license.ts';

test('base64url: RFC 4648 test vectors, without padding', () => {
  const vectors: [string, string][] = [['', ''], ['f', 'Zg'], ['fo', 'Zm8'], ['foo', 'Zm9v'], ['foob', 'Zm9vYg'], ['fooba', 'Zm9vYmE'], ['foobar', 'Zm9vYmFy']];
  for (const [plain, encoded] of vectors) assert.is(toBase64Url(new TextEncoder().encode(plain)), encoded, plain);
});

test('base64url: the URL alphabet (- and _), and every length round-trips through the decoder', () => {
  assert.is(toBase64Url(new Uint8Array([0xfb, 0xff, 0xbf])), '-_-_');
  for (let length = 0; length <= 40; length++) {
    const bytes = Uint8Array.from({ length }, (_, i) => (i * 151 + length * 17) & 255);
    const text = toBase64Url(bytes);
    assert.ok(/^[A-Za-z0-9_-]*$/.test(text), text);
    assert.is(text.length, Math.ceil((length * 4) / 3));
    assert.equal(fromBase64Url(text), bytes);
  }
});

test.run();
