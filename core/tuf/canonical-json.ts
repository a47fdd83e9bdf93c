/**
 * The canonical JSON TUF signs over (OLPC canonical JSON), byte for byte as tuf-js's `canonicalize`
 * (@tufjs/canonical-json) and securesystemslib's `encode_canonical` write it: no whitespace, object keys
 * sorted, strings with only `\` and `"` escaped (everything else as is, UTF-8 once encoded), integers only.
 *
 * Keys are sorted by UTF-16 code units, as JavaScript's default sort (and so tuf-js) does; Python sorts by
 * code points, which differs only between keys holding characters above U+FFFF and keys holding U+E000 to
 * U+FFFF. Every key the update files have is ASCII.
 *
 * Refused, with an Error naming where: a number that is not a safe integer (tuf-js would write 1e21 as
 * `1e+21`), undefined, functions, symbols, bigints, objects other than plain ones and arrays, and strings a
 * JSON reader could not read back the same (control characters, which canonical JSON leaves raw, and lone
 * surrogates, which UTF-8 cannot hold).
 *
 * @module
 */

import { LONE_SURROGATE } from '../formats/lone-surrogate.ts';

const CONTROL = /[\u0000-\u001f]/;

function canonicalString(text: string, where: string): string {
  if (CONTROL.test(text) || LONE_SURROGATE.test(text)) throw new Error(`canonical JSON: ${where} holds a control character or a lone surrogate`);
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

function encode(value: unknown, where: string): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return canonicalString(value, where);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isSafeInteger(value)) throw new Error(`canonical JSON: ${where} is ${value}, not an integer (canonical JSON has no floats)`);
      return JSON.stringify(value);
    case 'object': {
      if (Array.isArray(value)) return `[${value.map((item, i) => encode(item, `${where}[${i}]`)).join(',')}]`;
      const prototype = Object.getPrototypeOf(value) as unknown;
      if (prototype !== Object.prototype && prototype !== null) throw new Error(`canonical JSON: ${where} is not a plain object`);
      const record = value as Record<string, unknown>;
      const members = Object.keys(record).sort().map((key) => `${canonicalString(key, `a key of ${where}`)}:${encode(record[key], `${where}.${key}`)}`);
      return `{${members.join(',')}}`;
    }
    default:
      throw new Error(`canonical JSON: ${where} is ${typeof value}, which JSON cannot hold`);
  }
}

/**
 * The canonical JSON of a value.
 *
 * @param value Plain objects, arrays, strings, safe integers, booleans and null.
 * @returns The text TUF signs and serves (UTF-8 once encoded).
 * @throws Error naming the first value it cannot write.
 */
export function canonicalJson(value: unknown): string {
  return encode(value, 'the value');
}
