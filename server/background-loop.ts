/**
 * A background loop of the standalone server: runs `tick` every `intervalMs`, one at a time (a tick
 * still under way skips the next), on a timer that does not keep the process alive. A tick that fails
 * (a database outage, PGlite's disk reserve) is logged at most once a minute, with how many ticks failed
 * since the last line, not once a second. Used by the event and mail deliveries and the releases' reads.
 *
 * @module
 */
import type { Clock, Logger } from '../core/ports/ports.ts';

/** The least time between two log lines of failed ticks. */
const FAILURE_LOG_INTERVAL_MS = 60_000;

export interface BackgroundLoop {
  /** Stops the timer and waits for the tick under way. */
  stop(): Promise<void>;
}

/**
 * @param tick One round of work.
 * @param failure The log message of a failed tick.
 */
export function startBackgroundLoop(tick: () => Promise<unknown>, failure: string, clock: Clock, logger: Logger, intervalMs: number): BackgroundLoop {
  let running: Promise<void> = Promise.resolve();
  let busy = false;
  const failures = { count: 0, loggedAt: -Infinity };
  const failed = (error: unknown): void => {
    failures.count++;
    if (clock.now() - failures.loggedAt < FAILURE_LOG_INTERVAL_MS) return;
    failures.loggedAt = clock.now();
    logger.warn(failure, { error: error instanceof Error ? error.message : String(error), failedTicks: failures.count });
    failures.count = 0;
  };
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    running = tick()
      .then(() => undefined, failed)
      .finally(() => (busy = false));
  }, intervalMs);
  timer.unref?.();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
