/**
 * Crockford's base32 (https://www.crockford.com/base32.html) for keys a person reads out and types:
 * digits and upper-case letters without I, L, O and U; decoding ignores case, spaces and dashes, and reads
 * O as 0 and I or L as 1.
 *
 * @module
 */

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const VALUES = new Map<string, number>([...ALPHABET].map((char, value) => [char, value]));
for (const [alias, value] of [['O', 0], ['I', 1], ['L', 1]] as const) VALUES.set(alias, value);

/**
 * Encodes bytes, most significant bit first; the last character is padded with zero bits.
 *
 * @param bytes The bytes to write.
 * @returns The characters, without separators.
 */
export function toCrockfordBase32(bytes: Uint8Array): string {
  let text = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = ((buffer << 8) | byte) & 0xfff;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      text += ALPHABET[(buffer >> bits) & 31]!;
    }
  }
  if (bits > 0) text += ALPHABET[(buffer << (5 - bits)) & 31]!;
  return text;
}

/**
 * Decodes what a person typed: case, spaces and dashes do not matter; O reads as 0, I and L as 1.
 *
 * @param typed The characters, with or without separators.
 * @returns The bytes, or null when a character is not in the alphabet or the padding bits are not zero.
 */
export function fromCrockfordBase32(typed: string): Uint8Array | null {
  const text = typed.replace(/[\s-]/g, '').toUpperCase();
  const bytes = new Uint8Array(Math.floor((text.length * 5) / 8));
  let buffer = 0;
  let bits = 0;
  let index = 0;
  for (const char of text) {
    const value = VALUES.get(char);
    if (value === undefined) return null;
    buffer = ((buffer << 5) | value) & 0xfff;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes[index++] = (buffer >> bits) & 0xff;
    }
  }
  // Leftover bits must be padding (zero and fewer than 5), so each byte string has one spelling.
  if (bits >= 5 || (buffer & ((1 << bits) - 1)) !== 0) return null;
  return bytes;
}

/**
 * Splits characters into dash-separated groups, the way a key is printed.
 *
 * @param text The characters.
 * @param size The group length.
 */
export function groupCharacters(text: string, size = 5): string {
  return text.match(new RegExp(`.{1,${size}}`, 'g'))?.join('-') ?? '';
}
