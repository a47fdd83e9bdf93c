/**
 * Text made safe inside HTML: an element's content or a quoted attribute value. The five characters that
 * could end either are written as numeric references. The one HTML escape of the project: the public
 * Windows-only page, the simulator's pages, the operator pages and the mails all use it (Slack's `&amp;`
 * text, core/webhooks/slack.ts, is Slack's format, not HTML).
 *
 * @module
 */

/**
 * Escapes text for HTML.
 *
 * @param text Any text.
 * @returns The text with `&`, `<`, `>`, `"` and `'` as `&#38;`, `&#60;`, `&#62;`, `&#34;` and `&#39;`.
 */
export function escapeHtmlText(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
