/**
 * Updates on the Orders page (issue 56): which versions an order's keys may install, and why, as
 * GET /licenses/updates answers it for the order (its keys together, as one installation holds them).
 *
 * @module
 */
import type { LicenseUpdates } from '../../core/operator/license-updates.ts';
import { html, type Html } from './html.ts';

const VERDICTS: Record<LicenseUpdates['releases'][number]['verdict'], string> = {
  covered: 'Covered',
  fallback_bug_fix: 'Fallback bug fix',
  paid_upgrade: 'Paid upgrade',
  revoked: 'Revoked',
};

const day = (iso: string | null) => (iso === null ? 'lifetime' : iso.slice(0, 10));

/** The window of each key: "standard: 365 days from 2026-11-21, until 2027-11-21", or lifetime. */
function keyWindows(updates: LicenseUpdates): Html[] {
  return updates.keys.map((k) =>
    html`<li><span class="badge">${k.product}</span> ${
      k.windowDays === null ? `lifetime updates (issued ${k.issuedOn})` : `${k.windowDays} days from ${k.issuedOn}: updates until ${day(k.updatesUntil)}`
    }</li>`
  );
}

/** The Updates section of an order. */
export function orderUpdates(updates: LicenseUpdates): Html {
  const summary = updates.updatesUntil === null
    ? 'Lifetime updates: every release is covered.'
    : `Updates until ${day(updates.updatesUntil)}; after that, ${
      updates.fallbackLine === null ? 'none (no live release was published within the window)' : `bug fixes of ${updates.fallbackLine} only`
    }.`;
  const rows = updates.releases.length === 0
    ? html`<tr><td colspan="4" class="none">No release is stored: the baseline ${updates.baseline} is covered by every license.</td></tr>`
    : updates.releases.map((r) =>
      html`<tr><th scope="row">${r.version}${r.pulled ? ' (pulled)' : ''}</th><td>${r.publishedAt.slice(0, 10)}</td><td>${
        VERDICTS[r.verdict]
      }</td><td class="wrap">${r.reason}</td></tr>`
    );
  return html`<section class="card" aria-labelledby="order-updates"><h3 id="order-updates">Updates these keys cover</h3>
<p class="meta">${summary} The baseline ${updates.baseline} is covered by every license.</p>
<ul>${keyWindows(updates)}</ul>
<div class="scroll" role="region" aria-labelledby="order-updates" tabindex="0"><table class="updates">
<thead><tr><th scope="col">Version</th><th scope="col">Published</th><th scope="col">Verdict</th><th scope="col">Why</th></tr></thead>
<tbody>${rows}</tbody></table></div></section>`;
}
