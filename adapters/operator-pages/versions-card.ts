/**
 * The Numbers page's versions card (GET /stats `versions`): who runs which version, from the update
 * checks' User-Agent (the installed base by version per UTC day, and the share on the newest release),
 * and reviews and bug reports by the app version they name. Labels: a version this server knows,
 * `other`, `none`.
 *
 * @module
 */
import type { VersionStats } from '../../core/operator/version-stats.ts';
import { html, type Html } from './html.ts';

const LABEL_NAMES: Record<string, string> = { other: 'Other (not a known release)', none: 'Not named' };
const labelName = (label: string) => LABEL_NAMES[label] ?? label;

/** Versions first in the order of their installs, then those only feedback names; `other` and `none` last. */
function labelsOf(stats: VersionStats): string[] {
  const all = [...new Set([...Object.keys(stats.installed), ...Object.keys(stats.reviews), ...Object.keys(stats.bugReports)])];
  const rank = (label: string) => (label === 'other' ? 1 : label === 'none' ? 2 : 0);
  return all.sort((a, b) => rank(a) - rank(b) || (stats.installed[b] ?? 0) - (stats.installed[a] ?? 0));
}

function newestLine(stats: VersionStats): Html {
  const { newest } = stats;
  if (newest.share === null) return html`<p id="versions-newest">No update check named its version in this range: the share on the newest release, ${newest.version}, is not known.</p>`;
  return html`<p id="versions-newest"><strong>${newest.share}%</strong> of the clients naming a version ran the newest release, ${newest.version}, on ${newest.day ?? ''}.</p>`;
}

function summaryTable(stats: VersionStats, labels: readonly string[]): Html {
  const total = Object.entries(stats.installed).reduce((sum, [label, n]) => (label === 'none' ? sum : sum + n), 0);
  const rows =
    labels.length === 0
      ? html`<tr><td colspan="6" class="none">None in this range.</td></tr>`
      : labels.map((label) => {
          const installs = stats.installed[label] ?? 0;
          const share = label === 'none' || total === 0 ? '' : `${Math.round((installs * 1000) / total) / 10}%`;
          const review = stats.reviews[label];
          return html`<tr><th scope="row">${labelName(label)}</th><td>${installs}</td><td>${share}</td><td>${review?.count ?? 0}</td><td>${review?.average ?? ''}</td><td>${stats.bugReports[label] ?? 0}</td></tr>`;
        });
  return html`<table id="versions-installed" class="breakdown"><caption>By installed version</caption>
<thead><tr><th scope="col">Version</th><th scope="col">Installs (clients a day)</th><th scope="col">Share</th><th scope="col">Reviews</th><th scope="col">Average rating</th><th scope="col">Bug reports</th></tr></thead>
<tbody>${rows}</tbody></table>`;
}

function dayTable(stats: VersionStats, labels: readonly string[], open: boolean): Html {
  const shown = labels.filter((label) => (stats.installed[label] ?? 0) > 0);
  const rows = stats.days.map(
    (day) =>
      html`<tr><th scope="row"><time>${day.day}</time></th>${shown.map((label) => html`<td>${day.installed[label] ?? 0}</td>`)}<td>${day.newestShare === null ? '' : `${day.newestShare}%`}</td><td>${Object.values(day.bugReports).reduce((s, n) => s + n, 0)}</td></tr>`,
  );
  return html`<details class="numbers"${open ? html` open` : ''}><summary>Installed base by version per day as a table</summary>
<div class="scroll" role="region" aria-label="Installed base by version per day" tabindex="0"><table id="versions-by-day"><caption>Installs by version per day (UTC): distinct clients checking, each once a day</caption>
<thead><tr><th scope="col">Day</th>${shown.map((label) => html`<th scope="col">${labelName(label)}</th>`)}<th scope="col">On ${stats.newest.version}</th><th scope="col">Bug reports</th></tr></thead>
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
</section>`;
}
