/**
 * The Releases page's ramp plans: the plan, the step in force and when the next comes; a halted ramp's
 * reason with its figures and a Resume button (a pull is the other way out); the publish form's plan.
 *
 * @module
 */
import { html, time, type Html } from './html.ts';
import { csrfField } from './layout.ts';
import { numberField } from './page-module.ts';
import type { ListedRelease } from './releases-confirm.ts';

/** "Ramp 1% → 5% → 25% → 100%, one step every 24 hours: step 2 of 4 (5%), next step …", or nothing. */
export function rampLine(release: ListedRelease): Html | '' {
  const { ramp } = release;
  if (ramp === null) return '';
  const every = ramp.everyMinutes % 60 === 0 ? `${ramp.everyMinutes / 60} hours` : `${ramp.everyMinutes} minutes`;
  const next = release.haltedAt !== null ? ' · held by the halt rule' : ramp.nextStepAt ? html` · next step ${time(ramp.nextStepAt)}` : ' · last step reached';
  return html`<p class="meta ramp">Ramp ${ramp.steps.map((s) => `${s}%`).join(' → ')}, one step every ${every}: step ${ramp.step} of ${ramp.steps.length} (${release.rolloutPercent}%)${next}</p>`;
}

/** Why a ramp was halted, and the Resume button. */
export function haltBox(release: ListedRelease, target: string, csrf: string): Html | '' {
  if (release.haltedAt === null || release.pulledAt !== null) return '';
  return html`<div class="flash error halt" role="status"><p>Halted ${time(release.haltedAt)} at ${release.rolloutPercent}%: ${release.haltReason ?? ''}</p>
<p>Resume goes on with the plan from this step; Pull stops serving it.</p>
<form method="post" action="${target}/resume">${csrfField(csrf)}<button type="submit">Resume ${release.version}</button></form></div>`;
}

/**
 * The publish form's plan ("1,5,25,100" and hours per step) as the API takes it, or null when none is
 * typed; what is not whole numbers goes as typed, for the API to refuse by name.
 */
export function rampOfForm(steps: string | undefined, everyHours: string | undefined): { steps: number[]; everyMinutes: number } | string | null {
  const typed = steps?.trim();
  if (!typed) return null;
  const numbers = typed.split(',').map((step) => numberField(step));
  const hours = numberField(everyHours);
  if (typeof hours !== 'number' || numbers.some((n) => typeof n !== 'number')) return `${typed} every ${everyHours ?? ''} hours`;
  return { steps: numbers as number[], everyMinutes: hours * 60 };
}
