/**
 * A mail's text and content from one template (texts.ts): the plain text with its placeholders filled,
 * and the same words as mail content (core/ports/mail.ts), its paragraphs and line breaks kept, the keys
 * as code, for the HTML renderer.
 *
 * @module
 */
import type { MailContent, MailPart } from '../ports/mail.ts';
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
  content: MailContent;
}

const PLACEHOLDER = /\{(product|date|amount|session|howToEnter|keys)\}/g;

/** A template split at its placeholders: literal, name, literal, name, ... (one capture group). */
const pieces = (template: string) => template.split(PLACEHOLDER);

const valueOf = (values: MailValues, name: string) => String(values[name as Exclude<keyof MailValues, 'keys'>]);

function fillText(template: string, values: MailValues, keys: string): string {
  return pieces(template).map((piece, i) => (i % 2 === 0 ? piece : piece === 'keys' ? keys : valueOf(values, piece))).join('');
}

/** The body as paragraphs of lines: a blank line starts a paragraph, a newline a line; each key is a paragraph "label:", its key as code. */
function paragraphs(template: string, values: MailValues): MailPart[][][] {
  const found: MailPart[][][] = [[[]]];
  const paragraph = () => found[found.length - 1]!;
  const add = (part: MailPart) => paragraph()[paragraph().length - 1]!.push(part);
  const addText = (text: string) =>
    text.split(/\n{2,}/).forEach((chunk, p) => {
      if (p > 0) found.push([[]]);
      chunk.split('\n').forEach((line, l) => {
        if (l > 0) paragraph().push([]);
        if (line !== '') add(line);
      });
    });
  pieces(template).forEach((piece, i) => {
    if (i % 2 === 0 || piece !== 'keys') return addText(i % 2 === 0 ? piece : valueOf(values, piece));
    values.keys.forEach((k, n) => {
      if (n > 0) found.push([[]]);
      add(`${k.label}:`);
      paragraph().push([{ code: k.key }]);
    });
  });
  return found;
}

/**
 * Renders a template.
 *
 * @param template The subject and body with placeholders.
 * @param values What the placeholders stand for.
 */
export function renderMail(template: MailText, values: MailValues): RenderedMail {
  const textKeys = values.keys.map((k) => `${k.label}:\n${k.key}`).join('\n\n');
  const subject = fillText(template.subject, values, values.keys.map((k) => k.label).join(', ')).replaceAll(/[\r\n]+/g, ' ');
  const blocks = paragraphs(template.body, values).map((lines) => ({ kind: 'paragraph' as const, lines }));
  return { subject, text: `${fillText(template.body, values, textKeys)}\n`, content: { subject, blocks } };
}
