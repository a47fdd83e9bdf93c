/**
 * Usage counts written on a timer as well as from the request path (core/budgets/usage.ts writes a batch at most
 * every 10 s, but only when a request comes): a process killed after a quiet spell lost every count since
 * its last request (50 checks, 15 s idle, kill -9: 49 lost), and two instances on one PostgreSQL answered
 * different totals in GET /stats. The timer does not keep the process alive, and stopping writes what is left.
 *
 * @module
 */

/** How often counts are written: every 5 s, so a count is stored within 10 s, whatever the traffic. */
export const USAGE_WRITE_INTERVAL_MS = 5_000;

export interface UsageWriter {
  /** Stops the timer and writes what is counted and not yet written. */
  stop(): Promise<void>;
}

/**
 * Writes the counts every `intervalMs`.
 *
 * @param flush Writes what is pending (the app's `flush`; it logs and drops a failed write itself).
 */
export function writeUsageOnTimer(flush: () => Promise<void>, intervalMs = USAGE_WRITE_INTERVAL_MS): UsageWriter {
  const timer = setInterval(() => void flush(), intervalMs);
  timer.unref?.();
  return {
    async stop() {
      clearInterval(timer);
      await flush();
    },
  };
}
