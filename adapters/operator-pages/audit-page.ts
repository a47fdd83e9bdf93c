/**
 * The Audit page: who changed what and when, newest first, 50 to a page, filtered by operator, by the
 * beginning of the action and by text of the target; a GET form and links, so it works without JavaScript.
 * It only reads (GET /audit, core/operator/audit.ts).
 *
 * @module
 */
import type * as v from 'valibot';
import { listAudit, type AuditEntrySchema } from '../../core/operator/audit.ts';
import { html, time } from './html.ts';
import { refusalBox } from './layout.ts';
import type { PageModule, PageRequest } from './page-module.ts';

type Entry = v.InferOutput<typeof AuditEntrySchema>;

const PATH = '/pages/audit';
const PAGE_SIZE = '50';
const FILTERS = ['actor', 'action', 'target'] as const;
/** The beginnings of the actions offered in the form's list (any other may be typed). */
const ACTION_PREFIXES = ['release.', 'roadmap.', 'feedback.', 'order.', 'webhook.'] as const;

/** The filters of the page's query that are not empty (an empty field of the form is no filter). */
function filtersOf(query: URLSearchParams): URLSearchParams {
  const kept = new URLSearchParams();
  for (const name of FILTERS) {
    const value = query.get(name)?.trim();
    if (value) kept.set(name, value);
  }
  return kept;
}

function field(name: string, label: string, value: string | null, hint: string, list?: string) {
  return html`<div><label for="filter-${name}">${label}</label>
<input type="text" id="filter-${name}" name="${name}" value="${value ?? ''}" aria-describedby="hint-${name}"${list ? html` list="${list}"` : ''}>
<p class="meta" id="hint-${name}">${hint}</p></div>`;
}

function row(entry: Entry) {
  // data-label names each cell where a narrow screen shows the row as lines instead of columns.
  return html`<tr id="audit-${entry.id}"><td data-label="When">${time(entry.at)}</td><td data-label="Who">${entry.actor ?? html`<span title="no operator's name recorded">—</span>`}</td>
<td class="action" data-label="Action"><code>${entry.action}</code></td><td class="wrap" data-label="Target">${entry.target}</td><td class="wrap" data-label="Request id"><code>${entry.requestId}</code></td></tr>`;
}

async function render(page: PageRequest) {
  const filters = filtersOf(page.query);
  const query = new URLSearchParams([...filters, ['limit', PAGE_SIZE]]);
  const before = page.query.get('before');
  if (before) query.set('before', before);
  const outcome = await page.operate(listAudit, { query });
  const form = html`<form method="get" action="${PATH}" class="card" aria-label="Filters"><div class="row">
${field('actor', 'Operator', filters.get('actor'), 'A name of OPERATOR_TOKENS, or operator.')}
${field('action', 'Action starts with', filters.get('action'), 'For example release. or order.revoked', 'action-prefixes')}
${field('target', 'Target contains', filters.get('target'), 'A version, a session id, an address…')}
<datalist id="action-prefixes">${ACTION_PREFIXES.map((prefix) => html`<option value="${prefix}"></option>`)}</datalist>
<div class="fit"><button type="submit">Filter</button></div></div>
${filters.size > 0 || before ? html`<p><a href="${PATH}">Show every change</a></p>` : ''}</form>`;
  if (!outcome.ok) return html`${form}${refusalBox(outcome)}`;
  const { entries, next } = outcome.value;
  if (entries.length === 0) return html`${form}<p>No change matches these filters.</p>`;
  const older = next === null ? '' : html`<p><a href="${PATH}?${new URLSearchParams([...filters, ['before', String(next)]]).toString()}">Older changes</a></p>`;
  return html`${form}<h2 id="changes">Changes (${entries.length}${next === null ? '' : '+'})</h2>
<div class="scroll" role="region" aria-labelledby="changes" tabindex="0"><table class="audit">
<thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">Action</th><th scope="col">Target</th><th scope="col">Request id</th></tr></thead>
<tbody>${entries.map(row)}</tbody></table></div>
<p class="meta">— : no operator's name: a refund or dispute the payment provider reported, a halt by the halt rule, or a change recorded before operators had names.</p>${older}`;
}

export const auditPage: PageModule = { path: PATH, title: 'Audit', render, actions: [] };
