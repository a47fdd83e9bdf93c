/**
 * The canonical JSON TUF signs over: exact texts, and the same bytes as tuf-js's own `canonicalize`
 * (@tufjs/canonical-json, what a stock client verifies signatures over).
 */
import { canonicalize } from '@tufjs/canonical-json';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { canonicalJson } from '../../core/tuf/canonical-json.ts';

const test = suite('TUF canonical JSON');

test('keys are sorted by UTF-16 code units, at every depth, with no whitespace', () => {
  const value = { b: 1, a: [true, false, null], B: { z: 'z', '10': 0, '9': -0, é: 'é' }, '': {} };
  assert.is(canonicalJson(value), '{"":{},"B":{"10":0,"9":0,"z":"z","é":"é"},"a":[true,false,null],"b":1}');
  assert.is(canonicalJson(value), canonicalize(value));
});

test('a character above U+FFFF sorts before U+FFFD (code units), as tuf-js sorts it', () => {
  const value = { '\ufffd': 1, '\u{1f600}': 2, '\ue000': 3 };
  assert.is(canonicalJson(value), '{"\u{1f600}":2,"\ue000":3,"\ufffd":1}');
  assert.is(canonicalJson(value), canonicalize(value));
});

test('strings escape only backslash and double quote; unicode, slash and U+2028 are written as they are', () => {
  const text = 'a\\b"c/d\u2028ü€\u{1f600}\u007f';
  assert.is(canonicalJson(text), '"a\\\\b\\"c/d\u2028ü€\u{1f600}\u007f"');
  assert.is(canonicalJson(text), canonicalize(text));
  assert.equal(JSON.parse(canonicalJson({ [text]: text })), { [text]: text });
});

test('integers, nested arrays and objects match tuf-js', () => {
  const value = { n: [0, -1, 9007199254740991, -9007199254740991, [[], [{}]]], t: { x: { y: { z: 'deep' } } } };
  assert.is(canonicalJson(value), '{"n":[0,-1,9007199254740991,-9007199254740991,[[],[{}]]],"t":{"x":{"y":{"z":"deep"}}}}');
  assert.is(canonicalJson(value), canonicalize(value));
});

test('floats, NaN, infinities and integers past 2^53 are refused, naming where', () => {
  assert.throws(() => canonicalJson({ a: [1, 1.5] }), /the value\.a\[1\] is 1\.5, not an integer/);
  assert.throws(() => canonicalJson(NaN), /the value is NaN, not an integer/);
  assert.throws(() => canonicalJson({ x: Infinity }), /the value\.x is Infinity, not an integer/);
  assert.throws(() => canonicalJson(1e21), /is 1e\+21, not an integer/);
});

test('undefined, functions, bigints, symbols and non-plain objects are refused', () => {
  assert.throws(() => canonicalJson({ a: undefined }), /the value\.a is undefined, which JSON cannot hold/);
  assert.throws(() => canonicalJson([() => 1]), /the value\[0\] is function/);
  assert.throws(() => canonicalJson(1n), /is bigint/);
  assert.throws(() => canonicalJson(Symbol('s')), /is symbol/);
  assert.throws(() => canonicalJson({ d: new Date(0) }), /the value\.d is not a plain object/);
  assert.is(canonicalJson(Object.assign(Object.create(null) as object, { k: 'v' })), '{"k":"v"}');
});

test('control characters and lone surrogates, which no JSON reader reads back the same, are refused', () => {
  assert.throws(() => canonicalJson({ s: 'line\nbreak' }), /the value\.s holds a control character or a lone surrogate/);
  assert.throws(() => canonicalJson({ ['tab\t']: 1 }), /a key of the value holds a control character/);
  assert.throws(() => canonicalJson('\ud800'), /lone surrogate/);
  assert.throws(() => canonicalJson('x\udc00'), /lone surrogate/);
});

test.run();
