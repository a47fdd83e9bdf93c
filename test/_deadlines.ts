/**
 * Deadlines on the test's clock: abort signals (as `AbortSignal.timeout` makes) that fire when the test
 * moves its manual clock past them, never on a real timer.
 */
import type { ManualClock } from './_setup.ts';

export interface ClockDeadlines {
  /** A signal that aborts once the clock has passed `ms` from now (the mail worker's `abortAfter`). */
  abortAfter(ms: number): AbortSignal;
  /** Moves the clock on by `ms` and aborts every signal whose deadline it passed. */
  advance(ms: number): void;
  /** Signals not yet aborted. */
  readonly pending: number;
}

export function clockDeadlines(clock: ManualClock): ClockDeadlines {
  const waiting: { at: number; controller: AbortController }[] = [];
  return {
    abortAfter(ms) {
      const controller = new AbortController();
      waiting.push({ at: clock.now() + ms, controller });
      return controller.signal;
    },
    advance(ms) {
      clock.advance(ms);
      for (const due of waiting.filter((w) => w.at <= clock.now())) {
        waiting.splice(waiting.indexOf(due), 1);
        due.controller.abort(new Error('deadline'));
      }
    },
    get pending() {
      return waiting.length;
    },
  };
}
