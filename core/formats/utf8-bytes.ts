/**
 * A short string's UTF-8 bytes without a new array: written into one shared scratch array when the text
 * is ASCII (client keys are), else freshly encoded. For the keyed hashes, which read the bytes at once.
 *
 * @module
 */

const ASCII = new Uint8Array(256);
const encoder = new TextEncoder();

/**
 * The UTF-8 bytes of `text` and how many. The array may be the shared scratch one: read the first
 * `length` bytes before the next call.
 */
export function utf8Bytes(text: string): [Uint8Array, number] {
  if (text.length <= ASCII.length) {
    let i = 0;
    for (; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code >= 0x80) break;
      ASCII[i] = code;
    }
    if (i === text.length) return [ASCII, i];
  }
  const bytes = encoder.encode(text);
  return [bytes, bytes.length];
}
