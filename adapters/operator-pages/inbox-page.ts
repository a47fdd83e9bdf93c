/**
 * The Inbox page: feedback and reviews, newest first, filtered by type, rating and handled; each entry
 * marked handled (or not) with a button, and linked to the roadmap feature it asks for (or every entry
 * shown at once); the filtered list as a CSV file.
 *
 * @module
 */
import type * as v from 'valibot';
import { FEEDBACK_EXPORT_COLUMNS, listFeedback, markFeedbackHandled, markFeedbackListHandled, type ListedEntrySchema } from '../../core/operator/inbox.ts';
import { linkFeedbackFeature, linkFeedbackListFeature } from '../../core/operator/feedback-links.ts';
import { listRoadmapFeatures } from '../../core/operator/roadmap.ts';
import { field, selectField } from './fields.ts';
import { FEEDBACK_TYPES } from '../../core/ports/port-types.ts';
import { html, mailto, time } from './html.ts';
import { csvFile } from './inbox-export.ts';
import { csrfField, refusalBox } from './layout.ts';
import { done, failed, keptQuery, type PageModule, type PageRequest } from './page-module.ts';

type Entry = v.InferOutput<typeof ListedEntrySchema>;

/** The features an entry may be linked to, as select options: none, then each visible, unmerged feature. */
type FeatureOptions = readonly (readonly [string, string])[];

const PATH = '/pages/inbox';
const EXPORT_PATH = '/pages/inbox/export.csv';
const FILTERS = ['type', 'rating', 'handled', 'search'] as const;
export const TYPE_NAMES: Record<string, string> = { feature_request: 'Feature request', bug_report: 'Bug report', general: 'General', review: 'Review' };

/** The filters of the page's query that are set, as the page's query string (and `before` for a later page). */
function filterQuery(query: URLSearchParams, withBefore: boolean): URLSearchParams {
  const kept = new URLSearchParams();
  for (const name of [...FILTERS, ...(withBefore ? ['before'] : [])]) {
    const value = query.get(name)?.trim();
    if (value) kept.set(name, value);
  }
  return kept;
}

/** What the page shows of the handled mark: the new entries unless the query says `true` or `all`. */
const handledChoice = (query: URLSearchParams) => query.get('handled') || 'false';

/** The API's query for the page's filters: `handled=all` is no handled filter, none is `handled=false`. */
function apiQuery(query: URLSearchParams, withBefore: boolean): URLSearchParams {
  const api = filterQuery(query, withBefore);
  const handled = handledChoice(query);
  if (handled === 'all') api.delete('handled');
  else api.set('handled', handled);
  return api;
}

function select(name: string, label: string, chosen: string | null, options: readonly (readonly [string, string])[], any = true) {
  return html`<div><label for="filter-${name}">${label}</label><select id="filter-${name}" name="${name}">
${any ? html`<option value="">Any</option>` : ''}${options.map(([value, text]) => html`<option value="${value}"${value === chosen ? html` selected` : ''}>${text}</option>`)}
</select></div>`;
}

/** The form that links an entry (or, with `ids`, every entry shown) to a feature. */
function linkForm(action: string, features: FeatureOptions, chosen: number | null, csrf: string, back: string, label: string, id: string, ids?: readonly number[]) {
  return html`<form method="post" action="${action}" class="row">${csrfField(csrf)}
<input type="hidden" name="back" value="${back}">${ids ? html`<input type="hidden" name="ids" value="${ids.join(',')}">` : ''}
${selectField(id, 'featureId', label, features, String(chosen ?? ''))}
<div class="fit"><button type="submit" class="secondary">Link<span class="visually-hidden"> ${label}</span></button></div></form>`;
}

function entryCard(entry: Entry, csrf: string, back: string, features: FeatureOptions) {
  const stars = entry.rating === null ? '' : html` · <span class="badge">${entry.rating} of 5</span>`;
  const from = [entry.email ? mailto(entry.email) : null, entry.appVersion ? `app ${entry.appVersion}` : null]
    .filter((part) => part !== null)
    .map((part, i) => html`${i ? ' · ' : ''}${part}`);
  const mark = entry.handledAt === null;
  return html`<article class="card" aria-labelledby="entry-${entry.id}">
<h3 id="entry-${entry.id}">#${entry.id} <span class="badge">${TYPE_NAMES[entry.type] ?? entry.type}</span>${stars}
${entry.handledAt === null ? html` <span class="badge strong">New</span>` : ''}</h3>
<p class="meta">Received ${time(entry.receivedAt)}${from.length ? html` · ${from}` : ''}${entry.handledAt ? html` · handled ${time(entry.handledAt)}` : ''}</p>
<p class="description">${entry.description}</p>
<form method="post" action="${PATH}/${entry.id}/handled">${csrfField(csrf)}
<input type="hidden" name="back" value="${back}"><input type="hidden" name="handled" value="${mark ? 'true' : 'false'}">
<button type="submit" class="${mark ? '' : 'secondary'}">${mark ? 'Mark handled' : 'Mark not handled'}<span class="visually-hidden"> #${entry.id}</span></button>
</form>
${linkForm(`${PATH}/${entry.id}/feature`, features, entry.featureId, csrf, back, `Roadmap feature of #${entry.id}`, `feature-${entry.id}`)}
</article>`;
}

/** One button that marks every entry shown and not handled yet, by id (entries that came since are not marked unseen). */
function bulkForm(entries: readonly Entry[], csrf: string, back: string) {
  const open = entries.filter((e) => e.handledAt === null).map((e) => e.id);
  if (open.length === 0) return '';
  return html`<form method="post" action="${PATH}/handled" class="card">${csrfField(csrf)}
<input type="hidden" name="back" value="${back}"><input type="hidden" name="ids" value="${open.join(',')}">
<button type="submit">Mark all ${open.length} shown as handled</button></form>`;
}

/** Every entry shown linked to one feature at once (after a search for what they ask, say). */
function bulkLinkForm(entries: readonly Entry[], features: FeatureOptions, csrf: string, back: string) {
  if (entries.length === 0) return '';
  return html`<div class="card">${linkForm(`${PATH}/feature`, features, null, csrf, back, `Roadmap feature of all ${entries.length} shown`, 'feature-all', entries.map((e) => e.id))}</div>`;
}

async function featureOptions(page: PageRequest): Promise<FeatureOptions> {
  const outcome = await page.operate(listRoadmapFeatures, { query: new URLSearchParams() });
  const features = outcome.ok ? outcome.value.features.filter((f) => f.merged_into === null) : [];
  return [['', 'No feature'], ...features.map((f) => [String(f.id), `#${f.id} ${f.title}${f.visible ? '' : ' (hidden)'}`] as const)];
}

/** The feature chosen in a link form: a feature id, or null for none. */
const chosenFeature = (value: string | undefined): number | null => (value && /^\d{1,10}$/.test(value) ? Number(value) : null);

async function render(page: PageRequest) {
  const outcome = await page.operate(listFeedback, { query: apiQuery(page.query, true) });
  const features = await featureOptions(page);
  const shown = filterQuery(page.query, false);
  const back = shown.size > 0 ? `?${shown}` : '';
  const handled = handledChoice(page.query);
  const allLink = new URLSearchParams(shown);
  allLink.set('handled', 'all');
  const form = html`<form method="get" action="${PATH}" class="card" aria-label="Filters"><div class="row">
${select('type', 'Type', page.query.get('type'), FEEDBACK_TYPES.map((t) => [t, TYPE_NAMES[t] ?? t] as const))}
${select('rating', 'Rating', page.query.get('rating'), ['5', '4', '3', '2', '1'].map((r) => [r, `${r} of 5`] as const))}
${select('handled', 'Handled', handled, [['false', 'New (not handled)'], ['true', 'Handled'], ['all', 'All']], false)}
${field('filter-search', 'search', 'Text or email', { value: page.query.get('search')?.trim() ?? '' })}
<div class="fit"><button type="submit">Filter</button></div></div>
<p>${handled === 'all' ? '' : html`<a href="${PATH}?${allLink.toString()}">Show all entries</a> · `}<a href="${EXPORT_PATH}${back}">Export these as CSV</a></p></form>`;
  if (!outcome.ok) return html`${form}${refusalBox(outcome)}`;
  const { entries, next } = outcome.value;
  const list = entries.length === 0 ? html`<p>No feedback matches these filters.</p>` : entries.map((e) => entryCard(e, page.session.csrf, back, features));
  const older = next === null ? '' : html`<p><a href="${PATH}?${new URLSearchParams([...shown, ['before', String(next)]]).toString()}">Older entries</a></p>`;
  return html`${form}<h2>${entries.length === 0 ? 'Entries' : `Entries (${entries.length}${next === null ? '' : '+'})`}</h2>${bulkForm(entries, page.session.csrf, back)}${bulkLinkForm(entries, features, page.session.csrf, back)}${list}${older}`;
}

export const inboxPage: PageModule = {
  path: PATH,
  title: 'Inbox',
  render,
  actions: [
    {
      path: `${PATH}/handled`,
      async run(page, form) {
        const back = keptQuery(form['back']);
        const ids = (form['ids'] ?? '').split(',').filter((id) => /^\d{1,15}$/.test(id)).map(Number);
        const outcome = await page.operate(markFeedbackListHandled, { body: { ids } });
        if (!outcome.ok) return failed(outcome, back);
        const { marked, alreadyHandled, notFound } = outcome.value;
        const rest = [alreadyHandled ? `${alreadyHandled} handled already` : '', notFound ? `${notFound} not found` : ''].filter(Boolean).join(', ');
        return done(`Marked ${marked.length} ${marked.length === 1 ? 'entry' : 'entries'} handled${rest ? ` (${rest})` : ''}.`, back);
      },
    },
    {
      path: `${PATH}/feature`,
      async run(page, form) {
        const back = keptQuery(form['back']);
        const ids = (form['ids'] ?? '').split(',').filter((id) => /^\d{1,15}$/.test(id)).map(Number);
        const featureId = chosenFeature(form['featureId']);
        const outcome = await page.operate(linkFeedbackListFeature, { body: { ids, featureId } });
        if (!outcome.ok) return failed(outcome, back);
        const { linked, unchanged } = outcome.value;
        const to = featureId === null ? 'unlinked' : `linked to feature #${featureId}`;
        return done(`${linked.length} ${linked.length === 1 ? 'entry' : 'entries'} ${to}${unchanged ? ` (${unchanged} already so)` : ''}.`, back);
      },
    },
    {
      path: `${PATH}/:id/feature`,
      async run(page, form, params) {
        const back = keptQuery(form['back']);
        const featureId = chosenFeature(form['featureId']);
        const outcome = await page.operate(linkFeedbackFeature, { params: { id: params['id'] ?? '' }, body: { featureId } });
        if (!outcome.ok) return failed(outcome, back);
        return done(`Feedback #${params['id']} is ${featureId === null ? 'not linked to a feature' : `linked to feature #${featureId}`}.`, back);
      },
    },
    {
      path: `${PATH}/:id/handled`,
      async run(page, form, params) {
        const back = keptQuery(form['back']);
        const handled = form['handled'] !== 'false';
        const outcome = await page.operate(markFeedbackHandled, { params: { id: params['id'] ?? '' }, body: { handled } });
        if (!outcome.ok) return failed(outcome, back);
        return done(`Feedback #${params['id']} is marked ${handled ? 'handled' : 'not handled'}.`, back);
      },
    },
  ],
  files: [
    {
      path: EXPORT_PATH,
      async serve(page) {
        // Every matching entry, page by page (500 at a time), newest first, sent as each page is read.
        const query = apiQuery(page.query, false);
        query.set('limit', '500');
        const read = (before: number) => {
          query.set('before', String(before));
          return page.operate(listFeedback, { query });
        };
        return csvFile(await page.operate(listFeedback, { query }), read, FEEDBACK_EXPORT_COLUMNS, 'feedback.csv', page.now);
      },
    },
  ],
};
