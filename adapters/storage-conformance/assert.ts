/**
 * The few assertions the storage contract uses, with the meaning uvu/assert gives them (`equal` is deep
 * equality as dequal defines it), so that the suite needs no test library and runs on every runtime the
 * package does (Node, Deno, Bun, Workers). A failure reads `<rule>: got <what came back>, expected <what
 * the rule wants>`: each check names the rule it checks (the words of the port's doc comment) and the
 * call it read, and cannot go without (the message is a required argument of every assertion).
 *
 * @module
 */

/** A failed check: what was found and what was wanted, as test runners show them. */
export class AssertionError extends Error {
  override readonly name = 'AssertionError';
  readonly actual: unknown;
  readonly expected: unknown;
  readonly operator: string;

  constructor(message: string, actual: unknown, expected: unknown, operator: string) {
    super(message);
    this.actual = actual;
    this.expected = expected;
    this.operator = operator;
  }
}

/** A value as a line of a message: JSON, with undefined, bigints, maps and sets written out. */
export function show(value: unknown): string {
  if (value === undefined) return 'undefined';
  try {
    const text = JSON.stringify(value, (_key, item: unknown) => {
      if (item === undefined) return '<undefined>';
      if (typeof item === 'bigint') return `${item}n`;
      if (item instanceof Map) return { '<Map>': [...item] };
      if (item instanceof Set) return { '<Set>': [...item] };
      return item;
    });
    return text ?? String(value);
  } catch {
    return String(value);
  }
}

const has = (target: object, key: string) => Object.prototype.hasOwnProperty.call(target, key);

function findKey(map: ReadonlyMap<unknown, unknown> | ReadonlySet<unknown>, wanted: unknown): unknown {
  for (const key of map.keys()) if (deepEqual(key, wanted)) return key;
  return undefined;
}

/** Deep equality as dequal (uvu's `equal`) has it: same constructors, same own keys, equal values. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return a !== a && b !== b;
  const ctor: unknown = a.constructor;
  if (ctor !== b.constructor) return false;
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (a instanceof RegExp && b instanceof RegExp) return a.toString() === b.toString();
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => deepEqual(item, b[i]));
  if (a instanceof Set && b instanceof Set) {
    if (a.size !== b.size) return false;
    for (const item of a) {
      const key = item !== null && typeof item === 'object' ? findKey(b, item) : item;
      if (!b.has(key)) return false;
    }
    return true;
  }
  if (a instanceof Map && b instanceof Map) {
    if (a.size !== b.size) return false;
    for (const [item, value] of a) {
      const key = item !== null && typeof item === 'object' ? findKey(b, item) : item;
      if (!b.has(key) || !deepEqual(value, b.get(key))) return false;
    }
    return true;
  }
  if (ArrayBuffer.isView(a) && ArrayBuffer.isView(b)) {
    const x = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    const y = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    return x.length === y.length && x.every((byte, i) => byte === y[i]);
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  let count = 0;
  for (const key in left) {
    if (has(left, key)) {
      count++;
      if (!has(right, key)) return false;
    }
    if (!(key in right) || !deepEqual(left[key], right[key])) return false;
  }
  return Object.keys(right).length === count;
}

/** Throws the failure of a check: the rule it checks, what came back, and what the rule wants. */
function fail(message: string, actual: unknown, expected: unknown, operator: string, wanted: string): never {
  throw new AssertionError(`${message}: got ${show(actual)}, expected ${wanted}`, actual, expected, operator);
}

/**
 * `actual` and `expected` are deeply equal.
 *
 * @param message The rule checked and what was read, e.g. "equal publish times list the later published first: listReleases()".
 */
export function equal(actual: unknown, expected: unknown, message: string): void {
  if (!deepEqual(actual, expected)) fail(message, actual, expected, 'equal', show(expected));
}

/**
 * `actual` is `expected` (Object.is).
 *
 * @param message The rule checked and what was read.
 */
export function is(actual: unknown, expected: unknown, message: string): void {
  if (!Object.is(actual, expected)) fail(message, actual, expected, 'is', show(expected));
}

/**
 * `value` is truthy.
 *
 * @param message The rule checked and what was read.
 */
export function ok(value: unknown, message: string): asserts value {
  if (!value) fail(message, value, true, 'ok', 'a truthy value');
}

/**
 * `text` matches `pattern`, or contains it.
 *
 * @param message The rule checked and what was read.
 */
export function match(text: string, pattern: RegExp | string, message: string): void {
  const found = typeof pattern === 'string' ? text.includes(pattern) : pattern.test(text);
  if (!found) fail(message, text, String(pattern), 'match', `text matching ${String(pattern)}`);
}
