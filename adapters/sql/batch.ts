/**
 * Group commit for one kind of statement: calls that arrive while batches run wait for a free slot, and
 * all that waited go together in the next statement. Under load one statement (and one commit) serves
 * many calls.
 *
 * @module
 */

/**
 * Runs `work` once the event loop has handled the I/O that is ready now (setImmediate where the runtime
 * has it): every request that arrived meanwhile joins the batch. PGlite runs a statement in this very
 * thread, so the requests that came in during it are only read then; starting the next batch in a
 * microtask would leave them all for the batch after.
 */
export const afterIo: (work: () => void) => void =
  (globalThis as { setImmediate?: (work: () => void) => unknown }).setImmediate ?? ((work) => void setTimeout(work, 0));

interface Queued<In, Out> {
  input: In;
  resolve(output: Out): void;
  reject(error: unknown): void;
}

/** How batches are cut. */
export interface BatcherOptions {
  /** The most inputs in one statement; 500 by default. */
  maxBatch?: number;
  /**
   * The most statements running at once; 1 by default. A pool (PostgreSQL) takes 2: the next batch
   * runs in the database while this process answers the last one, instead of after it.
   */
  maxInFlight?: number;
}

/**
 * Creates a batcher.
 *
 * @param run Runs one batch as one statement and answers one output per input, in input order. Each
 *   call's promise settles only after `run`'s does, so an answer never comes before the commit.
 * @param options The batch size and how many statements may run at once.
 * @returns A function that queues one input and resolves with its output.
 */
export function createBatcher<In, Out>(run: (inputs: In[]) => Promise<Out[]>, options: BatcherOptions = {}): (input: In) => Promise<Out> {
  const maxBatch = options.maxBatch ?? 500;
  const maxInFlight = options.maxInFlight ?? 1;
  let queue: Queued<In, Out>[] = [];
  /** Statements running now. */
  let running = 0;
  /** A flush waits for the event loop's I/O. */
  let scheduled = false;

  const schedule = (): void => {
    if (scheduled || running >= maxInFlight || queue.length === 0) return;
    scheduled = true;
    afterIo(flush);
  };

  const flush = (): void => {
    scheduled = false;
    if (running >= maxInFlight || queue.length === 0) return;
    running++;
    const batch = queue.length <= maxBatch ? queue : queue.slice(0, maxBatch);
    queue = queue.length <= maxBatch ? [] : queue.slice(maxBatch);
    run(batch.map((queued) => queued.input))
      .then(
        (outputs) => {
          if (outputs.length !== batch.length) throw new Error(`a batch of ${batch.length} answered ${outputs.length} results`);
          for (let i = 0; i < batch.length; i++) batch[i]!.resolve(outputs[i]!);
        },
      )
      .catch((error: unknown) => {
        for (const queued of batch) queued.reject(error);
      })
      .finally(() => {
        running--;
        schedule();
      });
    // A free slot takes whatever arrives during the next I/O turn.
    schedule();
  };

  return (input) =>
    new Promise<Out>((resolve, reject) => {
      queue.push({ input, resolve, reject });
      schedule();
    });
}
