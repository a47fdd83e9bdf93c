/**
 * The Releases page: every release, highest version first, with the share of clients it is served to now
 * (the rule of core/releases/rollout-rule.ts: a superseded staged release shows 0 %) and the baseline's share;
 * publish a release to a share of the clients, widen (or narrow) its rollout, pull it after a confirmation
 * that says what the pull does (releases-confirm.ts), restore a pulled one.
 *
 * @module
 */
import { listReleases, promoteRelease, publishRelease, pullRelease, restoreRelease, setReleaseRollout } from '../../core/operator/releases.ts';
import { STABLE } from '../../core/releases/channels.ts';
import { resumeRelease } from '../../core/operator/release-halt.ts';
import { haltBox, rampLine, rampOfForm, STEP_UNITS } from './releases-ramp.ts';
import { field, selectField } from './fields.ts';
import { html, type Html, time } from './html.ts';
import { csrfField, refusalBox } from './layout.ts';
import { decimalField, done, failed, numberField, type PageModule, type PageRequest } from './page-module.ts';
import { pullConfirmation, RELEASES_PATH as PATH, type ListedRelease } from './releases-confirm.ts';

function roleOf(release: ListedRelease): string {
  if (release.pulledAt !== null) return 'Pulled';
  if (release.haltedAt !== null) return 'Halted';
  if (release.servedBasisPoints > 0) return 'Served';
  // At 0 % nobody is offered it yet; above 0 % a newer release with a larger rollout serves its clients.
  return release.rolloutBasisPoints === 0 ? 'Not rolled out' : 'Superseded';
}

/** The form that moves a live release to a more stable channel, or nothing (on stable, or pulled). */
function promoteForm(release: ListedRelease, channels: readonly string[], target: string, slug: string, csrf: string): Html | '' {
  const wider = channels.slice(0, Math.max(0, channels.indexOf(release.channel)));
  if (release.pulledAt !== null || wider.length === 0) return '';
  const choices = wider.map((channel) => [channel, channel] as const);
  return html`<form method="post" action="${target}/promote" class="row">${csrfField(csrf)}
${selectField(`promote-${slug}`, 'channel', `Promote ${release.version} to`, choices, wider[0]!)}
${field(`promote-percent-${slug}`, 'rolloutPercent', 'at percent (empty: its own)', { type: 'number', step: 0.01 })}
<div class="fit"><button type="submit">Promote</button></div></form>`;
}

function releaseCard(release: ListedRelease, channels: readonly string[], csrf: string) {
  const slug = release.version.replace(/[^\w-]/g, '-');
  const target = `${PATH}/${encodeURIComponent(release.version)}`;
  const role = roleOf(release);
  const audience = release.channel === STABLE ? 'clients' : `${release.channel} apps`;
  const served = html`<span class="badge">served to ${release.servedPercent}% of ${audience}</span>`;
  const rollout = release.pulledAt === null ? html` · rollout ${release.rolloutPercent}%` : '';
  const channel = release.channel === STABLE ? '' : html` · on ${release.channel}`;
  const actions =
    release.pulledAt !== null
      ? html`<div class="actions"><form method="post" action="${target}/restore">${csrfField(csrf)}<button type="submit">Restore ${release.version}</button></form></div>`
      : html`<div class="actions">
<form method="post" action="${target}/rollout" class="row">${csrfField(csrf)}
${field(`rollout-${slug}`, 'rolloutPercent', `Rollout of ${release.version}, percent`, { type: 'number', value: String(release.rolloutPercent), required: true, step: 0.01 })}
<div class="fit"><button type="submit">Set rollout</button></div></form>
<a class="button danger" href="${PATH}?pull=${encodeURIComponent(release.version)}#confirm">Pull ${release.version}…</a>
</div>${promoteForm(release, channels, target, slug, csrf)}`;
  const integrity = release.sha256 ? html` · SHA-256 <code>${release.sha256}</code>${release.size === null ? '' : html`, ${String(release.size)} bytes`}` : '';
  return html`<article class="card" aria-labelledby="release-${slug}">
<h3 id="release-${slug}">${release.version} <span class="badge strong">${role}</span> ${served}</h3>
<p class="meta">Published ${time(release.publishedAt)}${channel}${rollout}${release.pulledAt ? html` · pulled ${time(release.pulledAt)}` : ''}${release.critical ? ' · critical' : ''}</p>
<p class="description"><a href="${release.msiUrl}">${release.msiUrl}</a>${release.notesUrl ? html` · <a href="${release.notesUrl}">release notes</a>` : ''}${integrity}</p>
${rampLine(release)}${haltBox(release, target, csrf)}${actions}
</article>`;
}

const STEP_UNIT_CHOICES = Object.keys(STEP_UNITS).map((unit) => [unit, unit] as const);

function publishForm(channels: readonly string[], csrf: string) {
  return html`<details class="card"><summary>Publish a release</summary>
<form method="post" action="${PATH}">${csrfField(csrf)}
<div class="row">${field('publish-version', 'version', 'Version', { required: true, hint: 'major.minor.build above every published one, e.g. 2.5.0' })}
${field('publish-percent', 'rolloutPercent', 'Rollout, percent of clients', { type: 'number', value: '10', required: true, step: 0.01, hint: 'to two decimals: 0.5 is one client in 200' })}</div>
${field('publish-msi', 'msiUrl', 'MSI address (https)', { type: 'url', required: true })}
${selectField('publish-channel', 'channel', 'Channel', channels.map((channel) => [channel, channel] as const), STABLE)}
<div class="row">${field('publish-sha256', 'sha256', 'MSI SHA-256 (64 hex digits, optional)')}
${field('publish-size', 'size', 'MSI size in bytes (optional)', { type: 'number', min: 1, max: null })}</div>
${field('publish-notes', 'notesUrl', 'Release notes address (https, optional)', { type: 'url' })}
<div class="row">${field('publish-ramp', 'ramp', 'Ramp plan, percents (optional)', { hint: 'e.g. 0.5,5,25,100: the first step replaces the rollout above' })}
${field('publish-every', 'every', 'Each step lasts', { type: 'number', value: '24', min: 1, max: null })}
${selectField('publish-every-unit', 'everyUnit', 'Unit of the step', STEP_UNIT_CHOICES, 'hours')}</div>
<button type="submit">Publish</button>
</form></details>`;
}

async function render(page: PageRequest) {
  const outcome = await page.operate(listReleases);
  if (!outcome.ok) return refusalBox(outcome);
  const list = outcome.value;
  const { csrf } = page.session;
  const { baseline } = list;
  const baselineLine = html`<p>The baseline, ${baseline.version} (the version file and the config file's MSI), is served to ${baseline.servedPercent}% of clients.</p>`;
  return html`${pullConfirmation(list, page.query.get('pull'), csrf)}${publishForm(list.channels, csrf)}<h2>Releases (${list.releases.length})</h2>
<p>A client is served the highest version whose rollout is above its bucket: a rollout is the share offered this release or a newer one, to a hundredth of a percent (a basis point). An app on the update files has 10,000 buckets; an update check of <code>/version</code> has 100 and reads each rollout rounded down to a whole percent.</p>
${baselineLine}${list.releases.map((r) => releaseCard(r, list.channels, csrf))}`;
}

const optional = (text: string | undefined): string | null => (text?.trim() ? text.trim() : null);

export const releasesPage: PageModule = {
  path: PATH,
  title: 'Releases',
  render,
  actions: [
    {
      path: PATH,
      async run(page, form) {
        const size = optional(form['size']);
        const ramp = rampOfForm(form['ramp'], form['every'], form['everyUnit']);
        const body = {
          version: form['version']?.trim() ?? '',
          msiUrl: form['msiUrl']?.trim() ?? '',
          notesUrl: optional(form['notesUrl']),
          ...(form['channel'] ? { channel: form['channel'] } : {}),
          // With a plan, the rollout is its first step (the API's default): the percent field is not sent.
          ...(ramp === null || typeof ramp !== 'object' ? { rolloutPercent: decimalField(form['rolloutPercent']) } : {}),
          sha256: optional(form['sha256']),
          size: size === null ? null : numberField(size),
          ...(ramp === null ? {} : { ramp }),
        };
        const outcome = await page.operate(publishRelease, { body });
        if (!outcome.ok) return failed(outcome);
        const plan = outcome.value.ramp ? ` on a ramp of ${outcome.value.ramp.steps.join(', ')}%` : '';
        return done(`${body.version} is published to ${outcome.value.rolloutPercent}% of the clients${plan}.`);
      },
    },
    {
      path: `${PATH}/:version/rollout`,
      async run(page, form, params) {
        const rolloutPercent = decimalField(form['rolloutPercent']);
        const outcome = await page.operate(setReleaseRollout, { params: { version: params['version'] ?? '' }, body: { rolloutPercent } });
        if (!outcome.ok) return failed(outcome);
        const { version, servedPercent } = outcome.value;
        return done(`${version} is rolled out to ${rolloutPercent}%: served to ${servedPercent}% of the clients.`);
      },
    },
    {
      path: `${PATH}/:version/promote`,
      async run(page, form, params) {
        const percent = form['rolloutPercent']?.trim();
        const body = { channel: form['channel'] ?? '', ...(percent ? { rolloutPercent: decimalField(percent) } : {}) };
        const outcome = await page.operate(promoteRelease, { params: { version: params['version'] ?? '' }, body });
        if (!outcome.ok) return failed(outcome);
        const { version, channel, rolloutPercent } = outcome.value;
        return done(`${version} is promoted to ${channel}, at ${rolloutPercent}% of its apps.`);
      },
    },
    {
      path: `${PATH}/:version/pull`,
      async run(page, form, params) {
        const version = decodeURIComponent(params['version'] ?? '');
        // Only the confirmation form says so: a pull is never one click.
        if (form['confirm'] !== 'pull') return done(`Nothing was pulled: confirm the pull of ${version} first.`, `?pull=${encodeURIComponent(version)}`);
        const outcome = await page.operate(pullRelease, { params: { version: params['version'] ?? '' } });
        return outcome.ok ? done(`${version} is pulled: no client gets it until it is restored.`) : failed(outcome);
      },
    },
    {
      path: `${PATH}/:version/restore`,
      async run(page, _form, params) {
        const outcome = await page.operate(restoreRelease, { params: { version: params['version'] ?? '' } });
        if (!outcome.ok) return failed(outcome);
        const { version, servedPercent } = outcome.value;
        return done(`${version} is restored: served to ${servedPercent}% of the clients.`);
      },
    },
    {
      path: `${PATH}/:version/resume`,
      async run(page, _form, params) {
        const outcome = await page.operate(resumeRelease, { params: { version: params['version'] ?? '' } });
        if (!outcome.ok) return failed(outcome);
        const { version, rolloutPercent, ramp } = outcome.value;
        return done(`${version} resumed its ramp at ${rolloutPercent}%${ramp?.nextStepAt ? `; the next step comes ${ramp.nextStepAt}` : ''}.`);
      },
    },
  ],
};
