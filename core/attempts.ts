/**
 * Attempts under way, as the mail worker (mail/worker.ts) and the webhook delivery worker
 * (webhooks/worker.ts) keep them: each started from what a claim returned, settled however it ends, and
 * waited for by `tick` and `settled`. Claims take turns: a claim asked for while another is under way (a
 * tick beside the loop's start) begins once the first one's attempts have started, so it sees their
 * slots taken, overall and in whatever each worker counts per attempt (the webhook worker's deliveries
 * per endpoint). What a claim takes stays with each worker.
 *
 * @module
 */

/** What a background loop calls on a worker. */
export interface AttemptWorker {
  /** Starts what is due now; resolves with the number of attempts made, once they are done. */
  tick(): Promise<number>;
  /** Starts what is due now and resolves with the number started, without waiting for them. */
  start(): Promise<number>;
  /** Resolves when every attempt under way is done. */
  settled(): Promise<void>;
}

export interface AttemptOptions<T> {
  /** Attempts under way at once, at most. */
  slots: number;
  /** Claims at most `free` of what is due (never asked with no slot free). */
  claim(free: number): Promise<T[]>;
  /** Makes one attempt and records its outcome. */
  attempt(item: T): Promise<void>;
  /** Logs an attempt whose outcome could not be recorded (the attempt still ends). */
  unrecorded(item: T, error: unknown): void;
  /** Told as each attempt starts, before it runs. */
  started?(item: T): void;
  /** Told as each attempt ends, however it ended. */
  ended?(item: T): void;
}

/**
 * Creates a worker that runs what `claim` returns as attempts under way.
 *
 * @param options How it claims, attempts, and logs what could not be recorded.
 * @returns Its tick, start and settled.
 */
export function createAttemptWorker<T>(options: AttemptOptions<T>): AttemptWorker {
  const running = new Set<Promise<void>>();
  /** The last claim asked for, settled: the next one waits for it. */
  let turn: Promise<unknown> = Promise.resolve();

  const begin = (item: T): Promise<void> => {
    options.started?.(item);
    const done = options.attempt(item)
      .catch((error: unknown) => options.unrecorded(item, error))
      .finally(() => {
        options.ended?.(item);
        running.delete(done);
      });
    running.add(done);
    return done;
  };

  /** Claims what is due into the free slots, after any claim under way, and starts each attempt; their promises, never rejected. */
  const startDue = (): Promise<Promise<void>[]> => {
    const started = turn.then(async () => {
      const free = options.slots - running.size;
      return free > 0 ? (await options.claim(free)).map(begin) : [];
    });
    turn = started.catch(() => undefined);
    return started;
  };

  return {
    async tick() {
      const started = await startDue();
      await Promise.all(started);
      return started.length;
    },
    start: async () => (await startDue()).length,
    async settled() {
      while (running.size > 0) await Promise.all([...running]);
    },
  };
}
