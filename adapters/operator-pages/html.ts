/**
 * HTML built from template literals: every interpolated value is escaped unless it is already Html.
 *
 * @module
 */
import { escapeHtmlText } from '../../core/formats/html-text.ts';

/** Markup that is safe to insert as is (built by `html`). */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

type Part = Html | string | number | null | undefined | false | readonly Part[];

function render(part: Part): string {
  if (part instanceof Html) return part.text;
  if (Array.isArray(part)) return part.map(render).join('');
  if (part === null || part === undefined || part === false) return '';
  return escapeHtmlText(String(part));
}

/** The tag of every page template: html`<p>${text}</p>` escapes `text`. */
export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  let text = strings[0]!;
  for (let i = 0; i < values.length; i++) text += render(values[i]!) + strings[i + 1]!;
  return new Html(text);
}

/**
 * A time as the viewer reads it: UTC text (the fallback without JavaScript), which the page's script
 * rewrites in the viewer's time zone.
 */
export function time(ms: number | string): Html {
  const date = new Date(ms);
  const iso = date.toISOString();
  return html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>`;
}

/**
 * An email address as a mailto: link: the characters that would end or change the address in the URL
 * (`%`, `?`, `#`, `&`, spaces) percent-encoded, the text escaped like any other.
 */
export function mailto(email: string): Html {
  const address = encodeURI(email).replace(/[?#&]/g, (c) => encodeURIComponent(c));
  return html`<a href="mailto:${address}">${email}</a>`;
}
