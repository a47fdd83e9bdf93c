/**
 * Lower-case hexadecimal: TUF's key values, signatures, digests and cohort seeds.
 *
 * @module
 */

/** The lower-case hex of bytes. */
export function toHex(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += byte.toString(16).padStart(2, '0');
  return text;
}

/** Whether a text is hex of whole bytes (an even number of digits, either case). */
export function isHex(text: string): boolean {
  return text.length % 2 === 0 && /^[0-9a-fA-F]*$/.test(text);
}

/**
 * The bytes of a hex text.
 *
 * @throws Error when it is not hex of whole bytes.
 */
export function fromHex(text: string): Uint8Array<ArrayBuffer> {
  if (!isHex(text)) throw new Error('not hex of whole bytes');
  const bytes = new Uint8Array(text.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}
