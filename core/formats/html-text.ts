/**
 * Text made safe inside HTML: an element's content or a quoted attribute value. The five characters that
 * could end either are written as numeric references.
 *
 * @module
 */

export function escapeHtmlText(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
