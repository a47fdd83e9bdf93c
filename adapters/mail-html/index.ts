/**
 * The mails' HTML part from the core's mail content (core/ports/mail.ts `MailContent`): escaped text,
 * paragraphs, line breaks, keys as code, links. No images, no links that track, no remote content. A
 * host adds it with `createApp({ mailHtml })`; without it mails are sent as text only.
 *
 * @module
 */
import { escapeHtmlText as escape } from '../../core/formats/html-text.ts';
import type { MailBlock, MailContent, MailPart } from '../../core/ports/mail.ts';

function part(piece: MailPart): string {
  if (typeof piece === 'string') return escape(piece);
  if ('strong' in piece) return `<strong>${escape(piece.strong)}</strong>`;
  if ('code' in piece) return `<code style="font-size:1.1em">${escape(piece.code)}</code>`;
  return `<a href="${escape(piece.link.href)}">${escape(piece.link.text)}</a>`;
}

const block = (b: MailBlock) =>
  `<p${b.aside ? ' style="color:#555;font-size:0.9em"' : ''}>${b.lines.map((line) => line.map(part).join('')).join('<br>\n')}</p>`;

/**
 * Renders a mail's HTML document.
 *
 * @param content The subject (the document's title) and the body's blocks.
 */
export function mailHtml(content: MailContent): string {
  return `<!doctype html>\n<html><head><meta charset="utf-8"><title>${
    escape(content.subject)
  }</title></head>\n<body style="font-family:sans-serif;line-height:1.5">\n${content.blocks.map(block).join('\n')}\n</body></html>\n`;
}
