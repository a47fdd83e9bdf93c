/**
 * Attempts under way, as the mail worker (mail/worker.ts) and the webhook delivery worker
 * (webhooks/worker.ts) keep them: each started from what a claim returned, settled however it ends, and
 * waited for by `tick` and `settled`. How many slots are free, and how a claim takes them, stay with
 * each worker.
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
  /** Claims what is due into the free slots, given the attempts under way (none when no slot is free). */
  claim(running: number): Promise<T[]>;
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

  /** Claims what is due and starts each attempt; their promises, never rejected. */
  const startDue = async (): Promise<Promise<void>[]> => {
    const due = await options.claim(running.size);
    return due.map((item) => {
      options.started?.(item);
      const done = options.attempt(item)
        .catch((error: unknown) => options.unrecorded(item, error))
        .finally(() => {
          options.ended?.(item);
          running.delete(done);
        });
      running.add(done);
      return done;
    });
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
