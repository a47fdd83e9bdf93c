/**
 * A mail's text and HTML parts from one template (texts.ts): the plain text with its placeholders
 * filled, and the same words as HTML, escaped, with the keys as code. No images, no links that track,
 * no remote content.
 *
 * @module
 */
import { escapeHtmlText } from '../formats/html-text.ts';
import type { MailText } from './texts.ts';

/** The values of a mail's placeholders; `keys` are lines "label: key". */
export interface MailValues {
  product: string;
  date: string;
  amount: string;
  session: string;
  howToEnter: string;
  keys: readonly { label: string; key: string }[];
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const PLACEHOLDER = /\{(product|date|amount|session|howToEnter|keys)\}/g;

/** Escaped text with its paragraphs (a blank line) and line breaks kept. */
const htmlText = (text: string) =>
  escapeHtmlText(text)
    .split(/\n{2,}/)
    .map((paragraph) => paragraph.replaceAll('\n', '<br>\n'))
    .join('</p>\n<p>');

function fill(template: string, values: MailValues, keys: string, escape: (text: string) => string): string {
  const parts = template.split(PLACEHOLDER);
  // split with one capture group: literal, name, literal, name, ...
  return parts.map((part, i) => (i % 2 === 0 ? escape(part) : part === 'keys' ? keys : escape(String(values[part as Exclude<keyof MailValues, 'keys'>])))).join(
    '',
  );
}

/**
 * Renders a template.
 *
 * @param template The subject and body with placeholders.
 * @param values What the placeholders stand for.
 */
export function renderMail(template: MailText, values: MailValues): RenderedMail {
  const textKeys = values.keys.map((k) => `${k.label}:\n${k.key}`).join('\n\n');
  const htmlKeys = values.keys.map((k) => `${escapeHtmlText(k.label)}:<br>\n<code style="font-size:1.1em">${escapeHtmlText(k.key)}</code>`).join('</p>\n<p>');
  const subject = fill(template.subject, values, values.keys.map((k) => k.label).join(', '), (t) => t).replaceAll(/[\r\n]+/g, ' ');
  const body = `<p>${fill(template.body, values, htmlKeys, htmlText)}</p>`;
  return {
    subject,
    text: `${fill(template.body, values, textKeys, (t) => t)}\n`,
    html: `<!doctype html>\n<html><head><meta charset="utf-8"><title>${
      escapeHtmlText(subject)
    }</title></head>\n<body style="font-family:sans-serif;line-height:1.5">\n${body}\n</body></html>\n`,
  };
}
