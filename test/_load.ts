/**
 * Upper bounds on wall-clock durations for the few tests that measure a real timer (a socket timeout, a
 * provider that never answers): scaled by the machine's load, so that a loaded CI machine is not read as
 * a fault. Lower bounds (a timer must not fire early) are never scaled.
 */
import { availableParallelism, loadavg } from 'node:os';

/**
 * An upper bound.
 *
 * @param ms The bound on an idle machine.
 * @returns `ms`, times twice the one-minute load average per core when that is above 1/2.
 */
export function loadScaled(ms: number): number {
  const perCore = loadavg()[0]! / availableParallelism();
  return Math.round(ms * Math.max(1, 2 * perCore));
}
