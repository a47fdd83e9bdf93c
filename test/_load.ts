/**
 * Upper bounds on wall-clock durations for the few tests that measure a real timer (a socket timeout, a
 * provider that never answers): scaled by the machine's load, so that a loaded CI machine is not read as
 * a fault, and by TEST_SLOW. Lower bounds (a timer must not fire early) are never scaled.
 */
import { availableParallelism, loadavg } from 'node:os';

/**
 * TEST_SLOW: a factor, 1 by default, for every place where a real deadline is the point: the runner's
 * per-file TEST_TIMEOUT, `loadScaled`, and the browser tests' navigation timeout. Set it (say to 3) on a
 * machine slower or busier than its load average shows; it never changes what a test checks, only how
 * long it may wait.
 *
 * @param env The environment to read (this process's by default).
 * @returns The factor, a positive number.
 */
export function slowFactor(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env['TEST_SLOW'];
  if (raw === undefined || raw.trim() === '') return 1;
  const factor = Number(raw);
  if (!(factor > 0) || !Number.isFinite(factor)) {
    throw new Error(`TEST_SLOW must be a positive number (a factor, 1 by default), not ${JSON.stringify(raw)}`);
  }
  return factor;
}

/**
 * An upper bound.
 *
 * @param ms The bound on an idle machine.
 * @returns `ms`, times twice the one-minute load average per core when that is above 1/2, times TEST_SLOW.
 */
export function loadScaled(ms: number): number {
  const perCore = loadavg()[0]! / availableParallelism();
  return Math.round(ms * Math.max(1, 2 * perCore) * slowFactor());
}
