/**
 * Lone surrogates: the UTF-16 code units of a string that UTF-8 cannot hold, a high surrogate with no
 * low one after it or a low one with no high one before it (a pair is one character, and fine).
 *
 * @module
 */

/** One lone surrogate. Without the g flag, so that `test` keeps no state; `new RegExp(LONE_SURROGATE, 'g')` finds each. */
export const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
