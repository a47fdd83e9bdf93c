/**
 * Group commit for one kind of statement: calls that arrive while a batch runs wait for it, and all that
 * waited go together in the next statement. Under load one statement (and one commit) serves many calls.
 *
 * @module
 */

/**
 * Runs `work` once the event loop has handled the I/O that is ready now (setImmediate where the runtime
 * has it): every request that arrived meanwhile joins the batch. PGlite runs a statement in this very
 * thread, so the requests that came in during it are only read then; starting the next batch in a
 * microtask would leave them all for the batch after.
 */
const afterIo: (work: () => void) => void =
  (globalThis as { setImmediate?: (work: () => void) => unknown }).setImmediate ?? ((work) => void setTimeout(work, 0));

interface Queued<In, Out> {
  input: In;
  resolve(output: Out): void;
  reject(error: unknown): void;
}

/**
 * Creates a batcher.
 *
 * @param run Runs one batch as one statement and answers one output per input, in input order. Each
 *   call's promise settles only after `run`'s does, so an answer never comes before the commit.
 * @param maxBatch The most inputs in one statement.
 * @returns A function that queues one input and resolves with its output.
 */
export function createBatcher<In, Out>(run: (inputs: In[]) => Promise<Out[]>, maxBatch = 500): (input: In) => Promise<Out> {
  let queue: Queued<In, Out>[] = [];
  /** A batch runs, or one is about to start. */
  let running = false;

  const schedule = (): void => {
    if (running || queue.length === 0) return;
    running = true;
    afterIo(flush);
  };

  const flush = (): void => {
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
        running = false;
        schedule();
      });
  };

  return (input) =>
    new Promise<Out>((resolve, reject) => {
      queue.push({ input, resolve, reject });
      schedule();
    });
}
