/**
 * Every check of the kit, in the order they run: the checks that run a client into the limit come last,
 * so that a target with one client address spends its quota on the other checks first.
 */
import type { Check } from '../check.ts';
import { aliasChecks } from './aliases.ts';
import { checkoutChecks } from './checkout.ts';
import { downloadChecks } from './download.ts';
import { documentChecks } from './documents.ts';
import { errorChecks } from './errors.ts';
import { feedbackChecks } from './feedback.ts';
import { rateLimitChecks } from './rate-limit.ts';
import { roadmapChecks } from './roadmap.ts';
import { serviceChecks } from './service.ts';

const all = [
  ...documentChecks,
  ...downloadChecks,
  ...feedbackChecks,
  ...roadmapChecks,
  ...checkoutChecks,
  ...aliasChecks,
  ...serviceChecks,
  ...errorChecks,
  ...rateLimitChecks,
];
const last = new Set(['rate-limited', 'quota-enforced', 'quota-per-window', 'quota-per-client']);

export const CHECKS: readonly Check[] = [...all.filter((check) => !last.has(check.id)), ...all.filter((check) => last.has(check.id))];
