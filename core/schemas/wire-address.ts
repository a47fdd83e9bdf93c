/**
 * Addresses that go out in headers (a download's Location, Release-Notes) and in signed answers: ASCII on
 * the wire. A header carries bytes, and a signature covers bytes: a non-ASCII character went out as a raw
 * Latin-1 byte (`ä`, which no verifier rebuilds) or could not go out at all (`ł`, a 500 on every download
 * while GET /version kept offering the release; issue 42).
 *
 * So an address is made ASCII once, where it enters (publish, the config file): each non-ASCII character of
 * its path, query or fragment is percent-encoded as UTF-8 (RFC 3986 section 2.1; RFC 3987 section 3.1 maps an
 * IRI to a URI so, and browsers do the same with what is typed in their address bar), and every ASCII
 * character is kept exactly as written, so that an address already percent-encoded does not change. The
 * address stored is then the one signed and the one sent. A host name is not encoded: a non-ASCII one is
 * refused, naming the character, since its ASCII form is IDNA's `xn--` name, not a percent-encoding.
 *
 * @module
 */
import * as v from 'valibot';

/** The scheme and authority (user information, host, port) of an absolute address with one. */
const AUTHORITY = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/?#]*)/;
const NON_ASCII = /[^\u0000-\u007f]/u;
const NON_ASCII_RUNS = /[^\u0000-\u007f]+/gu;
/**
 * An unpaired surrogate (in u mode a paired one is one code point, not Cs), which has no UTF-8 form. Not
 * stored-text.ts's isWellFormed: importing it from here regrouped the package's chunks so that a page
 * bound to getPricing bundled 1.8 KiB more (test/client/size.test.ts).
 */
const UNPAIRED_SURROGATE = /\p{Cs}/u;

/** A character as a message names it: `"ł" (U+0142)`. */
export function describeCharacter(character: string): string {
  const code = character.codePointAt(0) ?? 0;
  return `"${character}" (U+${code.toString(16).toUpperCase().padStart(4, '0')})`;
}

/** The first non-ASCII character of an address's scheme and authority, or null when they are ASCII. */
export function nonAsciiInHost(address: string): string | null {
  const authority = AUTHORITY.exec(address)?.[1] ?? '';
  return NON_ASCII.exec(authority)?.[0] ?? null;
}

/**
 * The address with each non-ASCII character percent-encoded as UTF-8, every other character as written:
 * `https://example.com/Konwerter-ł.msi` becomes `https://example.com/Konwerter-%C5%82.msi`.
 *
 * @param address Valid Unicode (no unpaired surrogate), its host already ASCII.
 * @returns The ASCII address.
 */
export function percentEncodeNonAscii(address: string): string {
  return address.replace(NON_ASCII_RUNS, (run) => encodeURIComponent(run));
}

const MAX_LENGTH = 2048;

/**
 * The pipe items that make an absolute address ASCII on the wire: after the address's own checks (it is
 * absolute, without whitespace or control characters), refuse unpaired surrogates and a non-ASCII host,
 * percent-encode the rest, and hold the result to 2,048 characters.
 *
 * @returns Checks and a transform, to spread into a `v.pipe` of a string.
 */
/* @__NO_SIDE_EFFECTS__ */
export function asciiOnTheWire() {
  return [
    v.check((address: string) => !UNPAIRED_SURROGATE.test(address), 'must be valid Unicode (it holds an unpaired surrogate)'),
    v.check(
      (address: string) => nonAsciiInHost(address) === null,
      (issue) =>
        `has ${describeCharacter(nonAsciiInHost(String(issue.input)) ?? '?')} in its host name: give the host in its ASCII form ` +
        '(an internationalized name as its xn-- name); non-ASCII characters of the path, query and fragment are percent-encoded for you',
    ),
    v.transform(percentEncodeNonAscii),
    v.check((address: string) => address.length <= MAX_LENGTH, `must be at most ${MAX_LENGTH} characters once its non-ASCII characters are percent-encoded`),
  ] as const;
}

/**
 * An absolute address of the config file that goes out in a header (the baseline's MSI, the operator's own
 * Windows-only page): no whitespace or control character (a CR would end the header), ASCII on the wire.
 */
export const HeaderLink = v.pipe(
  v.string(),
  v.url('must be an absolute URL'),
  v.maxLength(MAX_LENGTH),
  v.regex(/^[^\s\u0000-\u001f\u007f-\u009f]+$/, 'must have no whitespace or control characters'),
  ...asciiOnTheWire(),
);
