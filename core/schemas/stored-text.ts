/**
 * The rules every stored string follows, written once for the server (valibot) and once for
 * /openapi.json (a JSON Schema `pattern` that ECMAScript with or without the u flag, ajv and Python's `re`
 * all compile: no lookaround, no surrogate escapes).
 *
 * @module
 */
import * as v from 'valibot';
import { LONE_SURROGATE } from '../formats/lone-surrogate.ts';

/** The control characters a stored string may not hold: C0 but tab, line feed, carriage return; DEL; C1. */
const CONTROL = '\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F';
/**
 * The storable characters `String.prototype.trim` removes (ECMAScript WhiteSpace and LineTerminator; VT
 * and FF are controls): a text of only these is blank.
 */
const BLANK = '\\t\\n\\r \\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000\\uFEFF';

/** No control character but tab, line feed and carriage return (so no NUL, which PostgreSQL cannot store). */
export const NO_CONTROL_CHARACTERS = new RegExp(`^[^${CONTROL}]*$`);
/** `NO_CONTROL_CHARACTERS`, and at least one character that is not white space. Linear: the classes are disjoint. */
export const NOT_BLANK_NO_CONTROL_CHARACTERS = new RegExp(`^[${BLANK}]*[^${CONTROL}${BLANK}][^${CONTROL}]*$`);

/**
 * `NO_CONTROL_CHARACTERS`, and neither U+FFFE nor U+FFFF: text XML 1.0 can carry (with `isWellFormed`), as
 * the Atom changelog must (roadmap titles and descriptions).
 */
export const XML_TEXT = new RegExp(`^[^${CONTROL}\\uFFFE\\uFFFF]*$`);

/** What a value breaking `XML_TEXT` is told, after the field's name. */
export const XML_TEXT_MESSAGE = 'must not contain control characters (other than tab, line feed and carriage return), U+FFFE, U+FFFF or unpaired surrogates: ' +
  'the Atom changelog (XML 1.0) cannot carry them';

/** What a value breaking the rule is told, after the field's name. */
export const STORABLE_TEXT_MESSAGE = 'must not contain control characters (other than tab, line feed and carriage return) or unpaired surrogates';

/**
 * Whether a string is valid Unicode (no unpaired surrogate, so encodable as UTF-8). A JSON Schema string
 * is a Unicode string by definition, so /openapi.json needs no pattern for it.
 */
export function isWellFormed(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}

/** Whether a string holds a character other than white space (as `trim` sees it). */
export function isNotBlank(text: string): boolean {
  return text.trim() !== '';
}

/**
 * The checks a `pattern` of /openapi.json already says, or that JSON Schema's string type implies: the
 * OpenAPI builder skips them instead of refusing a check it cannot convert.
 */
export const CHECKS_THE_SCHEMA_STATES: ReadonlySet<unknown> = new Set<unknown>([isWellFormed, isNotBlank]);

/**
 * The pipe items of a stored string: no control characters, valid Unicode.
 *
 * @param pattern `NO_CONTROL_CHARACTERS`, or a stricter pattern that implies it.
 * @param message What a value breaking it is told, after the field's name.
 * @returns A regex and a check, to spread into a `v.pipe`.
 */
/* @__NO_SIDE_EFFECTS__ */
export function storableText(pattern: RegExp = NO_CONTROL_CHARACTERS, message: string = STORABLE_TEXT_MESSAGE) {
  return [v.regex(pattern, message), v.check(isWellFormed, message)] as const;
}
