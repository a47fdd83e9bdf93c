/**
 * The Numbers page's versions card (GET /stats `versions`): who runs which version, in two kinds never
 * added up: by address, from the update checks' User-Agent, and by install id, from the installs pings of
 * apps on the update files (docs/releases.md "Two kinds of installs, never mixed"); the installed base by
 * version per UTC day and the share on the newest release in each kind, and reviews and bug reports by the
 * app version they name. Labels: a version this server knows, `other`, `none`.
 *
 * @module
 */
import type { VersionStats } from '../../core/operator/version-stats.ts';
import { html, type Html } from './html.ts';

const LABEL_NAMES: Record<string, string> = { other: 'Other (not a known release)', none: 'Not named' };
const labelName = (label: string) => LABEL_NAMES[label] ?? label;
const installsOf = (stats: VersionStats, label: string) => (stats.installed[label] ?? 0) + (stats.installIds[label] ?? 0);

/** Versions first in the order of their installs (both kinds), then those only feedback names; `other` and `none` last. */
function labelsOf(stats: VersionStats): string[] {
  const all = [
    ...new Set([...Object.keys(stats.installed), ...Object.keys(stats.installIds), ...Object.keys(stats.reviews), ...Object.keys(stats.bugReports)]),
  ];
  const rank = (label: string) => (label === 'other' ? 1 : label === 'none' ? 2 : 0);
  return all.sort((a, b) => rank(a) - rank(b) || installsOf(stats, b) - installsOf(stats, a));
}

function newestLine(stats: VersionStats): Html {
  const { newest } = stats;
  const byAddress = newest.share === null
    ? html`No update check named its version in this range: the share on the newest release, ${newest.version}, is not known by address.`
    : html`<strong>${newest.share}%</strong> of the clients naming a version ran the newest release, ${newest.version}, on ${newest.day ?? ''}.`;
  const byInstallId = newest.installIdShare === null
    ? ''
    : html` By install id (apps on the update files): <strong>${newest.installIdShare}%</strong> on ${newest.installIdDay ?? ''}.`;
  return html`<p id="versions-newest">${byAddress}${byInstallId}</p>`;
}

/** A label's share of a kind's installs, as text ('' for `none`, or when the kind has none). */
function shareText(counts: Readonly<Record<string, number>>, label: string): string {
  const total = Object.entries(counts).reduce((sum, [name, n]) => (name === 'none' ? sum : sum + n), 0);
  return label === 'none' || total === 0 ? '' : `${Math.round(((counts[label] ?? 0) * 1000) / total) / 10}%`;
}

function summaryTable(stats: VersionStats, labels: readonly string[]): Html {
  const rows = labels.length === 0
    ? html`<tr><td colspan="8" class="none">None in this range.</td></tr>`
    : labels.map((label) => {
      const review = stats.reviews[label];
      return html`<tr><th scope="row">${labelName(label)}</th><td>${stats.installed[label] ?? 0}</td><td>${
        shareText(stats.installed, label)
      }</td><td>${stats.installIds[label] ?? 0}</td><td>${shareText(stats.installIds, label)}</td><td>${review?.count ?? 0}</td><td>${
        review?.average ?? ''
      }</td><td>${stats.bugReports[label] ?? 0}</td></tr>`;
    });
  return html`<table id="versions-installed" class="breakdown"><caption>By installed version (installs by address and by install id are never added up)</caption>
<thead><tr><th scope="col">Version</th><th scope="col">Installs (clients a day)</th><th scope="col">Share</th><th scope="col">Installs (install ids a day)</th><th scope="col">Share</th><th scope="col">Reviews</th><th scope="col">Average rating</th><th scope="col">Bug reports</th></tr></thead>
<tbody>${rows}</tbody></table>`;
}

function dayTable(stats: VersionStats, labels: readonly string[], open: boolean): Html {
  const shown = labels.filter((label) => (stats.installed[label] ?? 0) > 0);
  const rows = stats.days.map(
    (day) =>
      html`<tr><th scope="row"><time>${day.day}</time></th>${shown.map((label) => html`<td>${day.installed[label] ?? 0}</td>`)}<td>${
        day.newestShare === null ? '' : `${day.newestShare}%`
      }</td><td>${Object.values(day.bugReports).reduce((s, n) => s + n, 0)}</td></tr>`,
  );
  return html`<details class="numbers"${open ? html` open` : ''}><summary>Installed base by version per day as a table</summary>
<div class="scroll" role="region" aria-label="Installed base by version per day" tabindex="0"><table id="versions-by-day"><caption>Installs by version per day (UTC): distinct clients checking, each once a day</caption>
<thead><tr><th scope="col">Day</th>${shown.map((label) => html`<th scope="col">${labelName(label)}</th>`)}<th scope="col">On ${stats.newest.version}</th><th scope="col">Bug reports</th></tr></thead>
<tbody>${rows}</tbody></table></div></details>`;
}

/** The installs by install id per day, shown once an app on the update files pinged in the range. */
function installIdDayTable(stats: VersionStats, labels: readonly string[], open: boolean): Html | '' {
  const shown = labels.filter((label) => (stats.installIds[label] ?? 0) > 0);
  if (shown.length === 0) return '';
  const rows = stats.days.map(
    (day) =>
      html`<tr><th scope="row"><time>${day.day}</time></th>${shown.map((label) => html`<td>${day.installIds[label] ?? 0}</td>`)}<td>${
        day.newestInstallIdShare === null ? '' : `${day.newestInstallIdShare}%`
      }</td></tr>`,
  );
  return html`<details class="numbers"${open ? html` open` : ''}><summary>Installs by install id per day as a table</summary>
<div class="scroll" role="region" aria-label="Installs by install id per day" tabindex="0"><table id="versions-by-install-id"><caption>Installs by version per day (UTC): distinct install ids of apps on the update files, each once a day</caption>
<thead><tr><th scope="col">Day</th>${shown.map((label) => html`<th scope="col">${labelName(label)}</th>`)}<th scope="col">On ${stats.newest.version}</th></tr></thead>
<tbody>${rows}</tbody></table></div></details>`;
}

/** The card. */
export function versionsCard(stats: VersionStats, openTable: boolean): Html {
  const labels = labelsOf(stats);
  return html`<section class="card" aria-labelledby="versions-heading">
<h2 id="versions-heading">Versions in use</h2>
${newestLine(stats)}
<div class="scroll" role="region" aria-label="By installed version" tabindex="0">${summaryTable(stats, labels)}</div>
${dayTable(stats, labels, openTable)}
${installIdDayTable(stats, labels, openTable)}
</section>`;
}
