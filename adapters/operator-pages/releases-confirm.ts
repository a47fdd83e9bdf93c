/**
 * The confirmation a pull asks for on the Releases page (a GET of `?pull=<version>`, no JavaScript): what
 * the pull will do to the clients, worked out with the rollout rule ("10 % of clients go back to 2.5.0"),
 * and a CSRF-protected form that pulls.
 *
 * @module
 */
import type { listReleases, ReleaseJson } from '../../core/operator/releases.ts';
import type { OutputOf } from '../../core/operator/operation.ts';
import { movesBetween } from '../../core/releases/rollout-rule.ts';
import { releasesOn, STABLE } from '../../core/releases/channels.ts';
import { html, type Html } from './html.ts';
import { csrfField } from './layout.ts';

export const RELEASES_PATH = '/pages/releases';

/** A release as the operator API lists it. */
export type ListedRelease = ReleaseJson;

/** GET /releases. */
export type ReleaseList = OutputOf<typeof listReleases>;

/** The sentences of what pulling `version` does, one per group of its channel's apps that moves. */
export function pullEffect(list: ReleaseList, version: string): string[] {
  const channel = list.releases.find((r) => r.version === version)?.channel ?? STABLE;
  const entries = releasesOn(list.channels, channel, list.releases).map((r) => ({
    version: r.version,
    rolloutBasisPoints: r.rolloutBasisPoints,
    pulledAt: r.pulledAt === null ? null : 0,
  }));
  const after = entries.map((r) => (r.version === version ? { ...r, pulledAt: 0 } : r));
  const name = (to: string | null) => (to === null ? `${list.baseline.version} (the baseline)` : to);
  const who = channel === STABLE ? 'clients' : `${channel} apps`;
  return movesBetween(entries, after).map((move) => `${move.basisPoints / 100}% of ${who} go back to ${name(move.to)}.`);
}

/** The confirmation box for `?pull=<version>`, or nothing when the page is not asked to confirm a live release. */
export function pullConfirmation(list: ReleaseList, version: string | null, csrf: string): Html | '' {
  const release = list.releases.find((r) => r.version === version && r.pulledAt === null);
  if (!release) return '';
  const effect = pullEffect(list, release.version);
  const sentences = effect.length > 0 ? effect : [`No client is served ${release.version} now: nobody's answer changes.`];
  const target = `${RELEASES_PATH}/${encodeURIComponent(release.version)}/pull`;
  return html`<section class="card" id="confirm" aria-labelledby="confirm-title">
<h2 id="confirm-title">Pull ${release.version}?</h2>
${sentences.map((sentence) => html`<p>${sentence}</p>`)}
<p>It can be undone: Restore serves it again with its rollout of ${release.rolloutPercent}%.</p>
<div class="actions"><form method="post" action="${target}">${csrfField(csrf)}<input type="hidden" name="confirm" value="pull">
<button type="submit" class="danger">Pull ${release.version}</button></form>
<a class="button secondary" href="${RELEASES_PATH}">Cancel</a></div>
</section>`;
}
