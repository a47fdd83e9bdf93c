/**
 * Text made safe inside XML 1.0: an element's content or a quoted attribute value. XML 1.0 cannot carry
 * every character a string can hold (its `Char` production): no C0 control but tab, line feed and carriage
 * return, no U+FFFE or U+FFFF, no unpaired surrogate. Those are dropped, then the text is escaped as HTML
 * text is (numeric references are XML's as well as HTML's), and a carriage return is written as `&#13;`,
 * which a parser keeps (a raw one it reads as a line feed).
 *
 * @module
 */
import { escapeHtmlText } from './html-text.ts';

/** Every character XML 1.0 cannot carry, even as a numeric reference. */
const NOT_XML_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Escapes text for XML 1.0, dropping the characters it cannot carry (text stored before the operator API
 * refused them, core/schemas/stored-text.ts).
 *
 * @param text Any text.
 * @returns The text without those characters, with `&`, `<`, `>`, `"`, `'` and CR as numeric references.
 */
export function escapeXmlText(text: string): string {
  return escapeHtmlText(text.replace(NOT_XML_CHAR, '')).replace(/\r/g, '&#13;');
}
