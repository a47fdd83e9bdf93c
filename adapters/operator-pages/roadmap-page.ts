/**
 * The Roadmap page: every feature with its votes and its linked requests (how many left an email), hidden
 * ones too; add one, edit one, hide or show it,
 * set the release that shipped it, merge a duplicate into another, and undo a merge.
 *
 * @module
 */
import { ROADMAP_CATEGORIES } from '../../core/schemas/roadmap.ts';
import type * as v from 'valibot';
import { createRoadmapFeature, editRoadmapFeature, listRoadmapFeatures, mergeRoadmapFeature, type AdminFeatureSchema } from '../../core/operator/roadmap.ts';
import { unmergeRoadmapFeature } from '../../core/operator/roadmap-unmerge.ts';
import { field, selectField, textArea } from './fields.ts';
import { html } from './html.ts';
import { csrfField, refusalBox } from './layout.ts';
import { done, failed, numberField, type PageModule, type PageRequest } from './page-module.ts';

type StoredFeature = v.InferOutput<typeof AdminFeatureSchema>;

const PATH = '/pages/roadmap';
const CATEGORIES = ROADMAP_CATEGORIES.map((c) => [c, c] as const);

/** The release field as the API takes it: empty is none (null). */
const releaseOf = (text: string | undefined) => (text?.trim() ? text.trim() : null);

function badges(feature: StoredFeature) {
  return html`<span class="badge strong">${feature.vote_count} ${feature.vote_count === 1 ? 'vote' : 'votes'}</span>
<span class="badge">${feature.linked_requests.length} linked ${feature.linked_requests.length === 1 ? 'request' : 'requests'}, ${feature.linked_with_email} with an email</span>
<span class="badge">${feature.category}</span>
<span class="badge">${feature.visible ? 'Shown' : 'Hidden'}</span>
${feature.release_version ? html`<span class="badge">Shipped in ${feature.release_version}</span>` : ''}
${feature.merged_into !== null ? html`<span class="badge">Merged into #${feature.merged_into}</span>` : ''}
${feature.from_config ? html`<span class="badge">From the config file</span>` : ''}`;
}

function featureCard(feature: StoredFeature, csrf: string) {
  const id = feature.id;
  return html`<article class="card${feature.visible ? '' : ' hidden'}" aria-labelledby="feature-${id}">
<h3 id="feature-${id}">#${id} ${feature.title}</h3>
<p class="meta">${badges(feature)}</p>
${feature.description ? html`<p class="description">${feature.description}</p>` : ''}
${feature.linked_requests.length ? html`<p class="meta">Asked for by feedback ${feature.linked_requests.map((request) => `#${request}`).join(', ')} (Inbox)</p>` : ''}
<div class="actions">
<form method="post" action="${PATH}/${id}/visibility">${csrfField(csrf)}<input type="hidden" name="visible" value="${feature.visible ? 'false' : 'true'}">
<button type="submit" class="secondary">${feature.visible ? 'Hide' : 'Show'}<span class="visually-hidden"> #${id}</span></button></form>
${feature.merged_into === null ? '' : html`<form method="post" action="${PATH}/${id}/unmerge">${csrfField(csrf)}
<button type="submit" class="secondary">Unmerge<span class="visually-hidden"> #${id}</span></button></form>`}
</div>
<details><summary>Edit #${id}</summary>
<form method="post" action="${PATH}/${id}/edit">${csrfField(csrf)}
${field(`title-${id}`, 'title', 'Title', { value: feature.title, required: true })}
${textArea(`description-${id}`, 'description', 'Description', feature.description)}
<div class="row">${selectField(`category-${id}`, 'category', 'Category', CATEGORIES, feature.category)}
${field(`release-${id}`, 'release_version', 'Shipped in release', { value: feature.release_version, hint: 'e.g. 2.6.0; empty when not shipped' })}</div>
<button type="submit">Save #${id}</button>
</form></details>
</article>`;
}

function addForm(csrf: string) {
  return html`<details class="card"><summary>Add a feature</summary>
<form method="post" action="${PATH}">${csrfField(csrf)}
${field('new-title', 'title', 'Title', { required: true })}
${textArea('new-description', 'description', 'Description')}
<div class="row">${selectField('new-category', 'category', 'Category', CATEGORIES)}
${field('new-release', 'release_version', 'Shipped in release', { hint: 'optional' })}</div>
<label class="inline"><input type="checkbox" name="visible" value="true" checked> Shown on the public roadmap</label>
<div><button type="submit">Add the feature</button></div>
</form></details>`;
}

function mergeForm(features: StoredFeature[], csrf: string) {
  const choices = features.filter((f) => f.merged_into === null).map((f) => [String(f.id), `#${f.id} ${f.title}${f.visible ? '' : ' (hidden)'}`] as const);
  return html`<details class="card"><summary>Merge a duplicate</summary>
<form method="post" action="${PATH}/merge">${csrfField(csrf)}
<p class="meta">The duplicate's votes move to the feature that stays (one per voter); the duplicate is hidden.</p>
<div class="row">${selectField('merge-from', 'from', 'Duplicate', choices)}
${selectField('merge-into', 'into', 'Merge into', choices)}</div>
<button type="submit">Merge</button>
</form></details>`;
}

/** The switch between the two orders of the list: the current one named, the other a link. */
function sortSwitch(byVotes: boolean) {
  const current = (text: string) => html`<strong aria-current="true">${text}</strong>`;
  return html`<p class="meta">Sort: ${byVotes ? html`<a href="${PATH}">by id</a>` : current('by id')} · ${byVotes ? current('by votes') : html`<a href="${PATH}?sort=votes">by votes</a>`}</p>`;
}

async function render(page: PageRequest) {
  const byVotes = page.query.get('sort') === 'votes';
  const outcome = await page.operate(listRoadmapFeatures, { query: new URLSearchParams(byVotes ? [['sort', 'votes']] : []) });
  if (!outcome.ok) return refusalBox(outcome);
  const { features } = outcome.value;
  const { csrf } = page.session;
  const list = features.length === 0 ? html`<p>No features yet.</p>` : features.map((f) => featureCard(f, csrf));
  return html`${addForm(csrf)}${features.length > 1 ? mergeForm(features, csrf) : ''}<h2>Features (${features.length})</h2>${sortSwitch(byVotes)}${list}`;
}

export const roadmapPage: PageModule = {
  path: PATH,
  title: 'Roadmap',
  render,
  actions: [
    {
      path: PATH,
      async run(page, form) {
        const body = {
          title: form['title'] ?? '',
          description: form['description'] ?? '',
          category: form['category'] ?? '',
          visible: form['visible'] === 'true',
          release_version: releaseOf(form['release_version']),
        };
        const outcome = await page.operate(createRoadmapFeature, { body });
        if (!outcome.ok) return failed(outcome);
        const feature = outcome.value;
        return done(`Feature #${feature.id} "${feature.title}" is added.`);
      },
    },
    {
      path: `${PATH}/:id/edit`,
      async run(page, form, params) {
        const body = {
          title: form['title'] ?? '',
          description: form['description'] ?? '',
          category: form['category'] ?? '',
          release_version: releaseOf(form['release_version']),
        };
        const outcome = await page.operate(editRoadmapFeature, { params: { id: params['id'] ?? '' }, body });
        return outcome.ok ? done(`Feature #${params['id']} is saved.`) : failed(outcome);
      },
    },
    {
      path: `${PATH}/:id/visibility`,
      async run(page, form, params) {
        const visible = form['visible'] === 'true';
        const outcome = await page.operate(editRoadmapFeature, { params: { id: params['id'] ?? '' }, body: { visible } });
        return outcome.ok ? done(`Feature #${params['id']} is ${visible ? 'shown' : 'hidden'}.`) : failed(outcome);
      },
    },
    {
      path: `${PATH}/merge`,
      async run(page, form) {
        const from = form['from'] ?? '';
        const outcome = await page.operate(mergeRoadmapFeature, { params: { id: from }, body: { into: numberField(form['into']) } });
        if (!outcome.ok) return failed(outcome);
        const { movedVotes } = outcome.value;
        return done(`Feature #${from} is merged into #${form['into']}: ${movedVotes} ${movedVotes === 1 ? 'vote' : 'votes'} moved.`);
      },
    },
    {
      path: `${PATH}/:id/unmerge`,
      async run(page, _form, params) {
        const outcome = await page.operate(unmergeRoadmapFeature, { params: { id: params['id'] ?? '' } });
        if (!outcome.ok) return failed(outcome);
        const { shown, from, restoredVotes } = outcome.value;
        return done(`Feature #${shown.id} is shown again, out of #${from.id}: ${restoredVotes} ${restoredVotes === 1 ? 'vote' : 'votes'} back.`);
      },
    },
  ],
};
