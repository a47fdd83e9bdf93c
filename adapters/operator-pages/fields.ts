/**
 * Form controls of the pages, each with its label: a text field, a select and a text area.
 *
 * @module
 */
import { html, type Html } from './html.ts';

export interface FieldOptions {
  type?: 'text' | 'url' | 'number' | 'date';
  value?: string | null;
  required?: boolean;
  hint?: string;
  /** The bounds of a number: 0 and 100 (a percent) unless given; a `max` of null sets none (a size in bytes). */
  min?: number;
  max?: number | null;
  /** The step of a number: 1 unless given (0.01 for a rollout in percent, one basis point). */
  step?: number;
}

/** A labelled input; `id` must be unique on the page. */
export function field(id: string, name: string, label: string, options: FieldOptions = {}): Html {
  const type = options.type ?? 'text';
  const hint = options.hint ? html`<span class="meta" id="${id}-hint">${options.hint}</span>` : '';
  const max = options.max === null ? '' : html` max="${options.max ?? 100}"`;
  const range = type === 'number' ? html` min="${options.min ?? 0}"${max} step="${options.step ?? 1}"` : '';
  return html`<div><label for="${id}">${label}</label>
<input type="${type}" id="${id}" name="${name}" value="${options.value ?? ''}"${range}${options.required ? html` required` : ''}${options.hint ? html` aria-describedby="${id}-hint"` : ''}>${hint}</div>`;
}

/** A labelled select; `chosen` is the selected value. */
export function selectField(id: string, name: string, label: string, options: readonly (readonly [string, string])[], chosen: string | null = null): Html {
  const choices = options.map(([value, text]) => html`<option value="${value}"${value === chosen ? html` selected` : ''}>${text}</option>`);
  return html`<div><label for="${id}">${label}</label><select id="${id}" name="${name}">${choices}</select></div>`;
}

/** A labelled text area. */
export function textArea(id: string, name: string, label: string, value = ''): Html {
  return html`<div><label for="${id}">${label}</label><textarea id="${id}" name="${name}" rows="3">${value}</textarea></div>`;
}
