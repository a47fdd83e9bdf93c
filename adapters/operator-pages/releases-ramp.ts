/**
 * The Releases page's ramp plans: the plan, the step in force and when the next comes; a halted ramp's
 * reason with its figures and a Resume button (a pull is the other way out); the publish form's plan.
 *
 * @module
 */
import { html, time, type Html } from './html.ts';
import { csrfField } from './layout.ts';
import { decimalField, numberField } from './page-module.ts';
import type { ListedRelease } from './releases-confirm.ts';

/** "Ramp 0.5% → 5% → 25% → 100%, one step every 24 hours: step 2 of 4 (5%), next step …", or nothing. */
export function rampLine(release: ListedRelease): Html | '' {
  const { ramp } = release;
  if (ramp === null) return '';
  const every = duration(ramp.everyMinutes);
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

/** The units the publish form's step length is typed in, as minutes. */
export const STEP_UNITS = { minutes: 1, hours: 60, days: 1440 } as const;

export type StepUnit = keyof typeof STEP_UNITS;

/** A step's length as the page says it: "1 minute", "24 hours", "7 days" (days from two on, as a plan is typed). */
export function duration(minutes: number): string {
  const [count, unit] = minutes % 1440 === 0 && minutes > 1440 ? [minutes / 1440, 'day'] : minutes % 60 === 0 ? [minutes / 60, 'hour'] : [minutes, 'minute'];
  return `${count} ${unit}${count === 1 ? '' : 's'}`;
}

/**
 * The publish form's plan ("0.5,5,25,100" in percent, and how long each step lasts in minutes, hours or days, as the
 * CLI's --every 30m, 24h, 7d) as the API takes it, or null when none is typed; what is not whole numbers
 * or a known unit goes as typed, for the API to refuse by name (it refuses more than two decimals).
 */
export function rampOfForm(steps: string | undefined, every: string | undefined, unit: string | undefined): { steps: number[]; everyMinutes: number } | string | null {
  const typed = steps?.trim();
  if (!typed) return null;
  const numbers = typed.split(',').map((step) => decimalField(step));
  const count = numberField(every);
  const perUnit = unit !== undefined && Object.hasOwn(STEP_UNITS, unit) ? STEP_UNITS[unit as StepUnit] : undefined;
  if (typeof count !== 'number' || perUnit === undefined || numbers.some((n) => typeof n !== 'number')) return `${typed} every ${every ?? ''} ${unit ?? ''}`;
  return { steps: numbers as number[], everyMinutes: count * perUnit };
}
