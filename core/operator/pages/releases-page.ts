/**
 * The Releases page: the release every client is served (current), the one the others keep during a
 * staged rollout (previous), the pulled ones; publish a release to a share of the clients, widen (or
 * narrow) its rollout, pull it.
 *
 * @module
 */
import { decodedParam } from '../path-param.ts';
import { field } from './fields.ts';
import { html, time } from './html.ts';
import { csrfField, refusalBox } from './layout.ts';
import { done, failed, numberField, type PageModule, type PageRequest } from './page-module.ts';

/** A release as the operator API lists it. */
interface Release {
  version: string;
  msiUrl: string;
  notesUrl: string | null;
  rolloutPercent: number;
  publishedAt: string;
  pulledAt: string | null;
}

const PATH = '/pages/releases';

/**
 * What the release is to the clients: the newest live one is current (staged below 100 %), the next live
 * one previous (what the other clients keep during a staged rollout).
 */
function roleOf(release: Release, live: Release[]): string {
  if (release.pulledAt !== null) return 'Pulled';
  if (release === live[0]) return release.rolloutPercent >= 100 ? 'Current' : 'Current, staged';
  if (release === live[1]) return live[0]!.rolloutPercent >= 100 ? 'Previous' : 'Previous, served to the others';
  return 'Older';
}

function releaseCard(release: Release, role: string, csrf: string) {
  const slug = release.version.replace(/[^\w-]/g, '-');
  const target = `${PATH}/${encodeURIComponent(release.version)}`;
  const served = role === 'Pulled' || role === 'Older' ? '' : html`<span class="badge">${release.rolloutPercent}% of clients</span>`;
  const actions = release.pulledAt !== null ? '' : html`<div class="actions">
<form method="post" action="${target}/rollout" class="row">${csrfField(csrf)}
${field(`rollout-${slug}`, 'rolloutPercent', `Rollout of ${release.version}, percent`, { type: 'number', value: String(release.rolloutPercent), required: true })}
<div class="fit"><button type="submit">Set rollout</button></div></form>
<form method="post" action="${target}/pull">${csrfField(csrf)}<button type="submit" class="danger">Pull ${release.version}</button></form>
</div>`;
  return html`<article class="card" aria-labelledby="release-${slug}">
<h3 id="release-${slug}">${release.version} <span class="badge strong">${role}</span> ${served}</h3>
<p class="meta">Published ${time(release.publishedAt)}${release.pulledAt ? html` · pulled ${time(release.pulledAt)}` : ''}</p>
<p class="description"><a href="${release.msiUrl}">${release.msiUrl}</a>${release.notesUrl ? html` · <a href="${release.notesUrl}">release notes</a>` : ''}</p>
${actions}
</article>`;
}

function publishForm(csrf: string) {
  return html`<details class="card"><summary>Publish a release</summary>
<form method="post" action="${PATH}">${csrfField(csrf)}
<div class="row">${field('publish-version', 'version', 'Version', { required: true, hint: 'e.g. 2.5.0' })}
${field('publish-percent', 'rolloutPercent', 'Rollout, percent of clients', { type: 'number', value: '10', required: true })}</div>
${field('publish-msi', 'msiUrl', 'MSI address (https)', { type: 'url', required: true })}
${field('publish-notes', 'notesUrl', 'Release notes address (https, optional)', { type: 'url' })}
<button type="submit">Publish</button>
</form></details>`;
}

async function render(page: PageRequest) {
  const outcome = await page.operate('listReleases');
  if (!outcome.ok) return refusalBox(outcome);
  const { releases } = outcome.value as { releases: Release[] };
  const live = releases.filter((r) => r.pulledAt === null);
  const { csrf } = page.session;
  const staged = live[0] !== undefined && live[0].rolloutPercent < 100 && live[1] === undefined;
  const list =
    live.length === 0
      ? html`<p>No release is served from here: update checks get the version file and the config file's MSI.</p>`
      : staged
        ? html`<p>The clients outside the rollout get the version file and the config file's MSI.</p>`
        : '';
  return html`${publishForm(csrf)}<h2>Releases (${releases.length})</h2>${list}${releases.map((r) => releaseCard(r, roleOf(r, live), csrf))}`;
}

export const releasesPage: PageModule = {
  path: PATH,
  title: 'Releases',
  render,
  actions: [
    {
      path: PATH,
      async run(page, form) {
        const notesUrl = form['notesUrl']?.trim();
        const body = {
          version: form['version']?.trim() ?? '',
          msiUrl: form['msiUrl']?.trim() ?? '',
          notesUrl: notesUrl ? notesUrl : null,
          rolloutPercent: numberField(form['rolloutPercent']),
        };
        const outcome = await page.operate('publishRelease', { body });
        return outcome.ok ? done(`${body.version} is published to ${body.rolloutPercent}% of the clients.`) : failed(outcome);
      },
    },
    {
      path: `${PATH}/:version/rollout`,
      async run(page, form, params) {
        const rolloutPercent = numberField(form['rolloutPercent']);
        const outcome = await page.operate('setReleaseRollout', { params, body: { rolloutPercent } });
        return outcome.ok ? done(`${decodedParam(params['version'])} is served to ${rolloutPercent}% of the clients.`) : failed(outcome);
      },
    },
    {
      path: `${PATH}/:version/pull`,
      async run(page, _form, params) {
        const outcome = await page.operate('pullRelease', { params });
        return outcome.ok ? done(`${decodedParam(params['version'])} is pulled: no client gets it again.`) : failed(outcome);
      },
    },
  ],
};
