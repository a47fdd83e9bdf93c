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
export const afterIo: (work: () => void) => void = (globalThis as { setImmediate?: (work: () => void) => unknown }).setImmediate ??
  ((work) => void setTimeout(work, 0));

interface Queued<In, Out> {
  input: In;
  resolve(output: Out): void;
  reject(error: unknown): void;
}

/** How batches are cut. */
export interface BatcherOptions<In = unknown> {
  /** The most inputs in one statement; 500 by default. */
  maxBatch?: number;
  /**
   * The most statements running at once; 1 by default. A pool (PostgreSQL) takes 2: the next batch
   * runs in the database while this process answers the last one, instead of after it.
   */
  maxInFlight?: number;
  /**
   * How long the first input waits for company when no statement runs; by default only for the I/O that
   * is ready now (afterIo). While a statement runs, and once one returns, the next batch goes after the
   * I/O turn.
   */
  collectMs?: number;
  /**
   * How long a statement may take: past it, its inputs are rejected and its slot is freed (the statement
   * itself may still finish; its result is then ignored). None by default.
   */
  timeoutMs?: number;
  /** Inputs go together only when this gives the same value (the rate-limit window length); one batch by default. */
  batchKey?: (input: In) => unknown;
}

/** A batcher: queues one input and resolves with its output. */
export interface Batcher<In, Out> {
  (input: In): Promise<Out>;
  /** Statements run so far. */
  readonly statements: number;
}

/**
 * Creates a batcher.
 *
 * @param run Runs one batch as one statement and answers one output per input, in input order. Each
 *   call's promise settles only after `run`'s does, so an answer never comes before the commit.
 * @param options The batch size, how many statements may run at once, and the optional wait, deadline
 *   and batch key.
 * @returns A function that queues one input and resolves with its output.
 */
export function createBatcher<In, Out>(run: (inputs: In[]) => Promise<Out[]>, options: BatcherOptions<In> = {}): Batcher<In, Out> {
  const { collectMs, timeoutMs, batchKey } = options;
  const maxBatch = options.maxBatch ?? 500;
  const maxInFlight = options.maxInFlight ?? 1;
  let queue: Queued<In, Out>[] = [];
  /** Statements running now. */
  let running = 0;
  /** A flush waits for the event loop's I/O (or for `collectMs`). */
  let scheduled = false;
  let statements = 0;

  /** Flushes after `collectMs` when idle; after the I/O turn while a statement runs or once one returned. */
  const schedule = (afterStatement = false): void => {
    if (scheduled || running >= maxInFlight || queue.length === 0) return;
    scheduled = true;
    if (collectMs !== undefined && running === 0 && !afterStatement) setTimeout(flush, collectMs);
    else afterIo(flush);
  };

  /** The next batch: the first `maxBatch` queued inputs with the first one's batch key. */
  const take = (): Queued<In, Out>[] => {
    if (batchKey === undefined) {
      const batch = queue.length <= maxBatch ? queue : queue.slice(0, maxBatch);
      queue = queue.length <= maxBatch ? [] : queue.slice(maxBatch);
      return batch;
    }
    const key = batchKey(queue[0]!.input);
    const batch: Queued<In, Out>[] = [];
    const rest: Queued<In, Out>[] = [];
    for (const queued of queue) (batch.length < maxBatch && batchKey(queued.input) === key ? batch : rest).push(queued);
    queue = rest;
    return batch;
  };

  const flush = (): void => {
    scheduled = false;
    if (running >= maxInFlight || queue.length === 0) return;
    running++;
    statements++;
    const batch = take();
    let settled = false;
    /** Frees the slot once, whichever comes first: the statement or its deadline. */
    const settle = (): boolean => {
      if (settled) return false;
      settled = true;
      clearTimeout(deadline);
      running--;
      schedule(true);
      return true;
    };
    const deadline = timeoutMs === undefined ? undefined : setTimeout(() => {
      if (settle()) { for (const queued of batch) queued.reject(new Error(`a batched statement took over ${timeoutMs} ms`)); }
    }, timeoutMs);
    run(batch.map((queued) => queued.input)).then(
      (outputs) => {
        if (!settle()) return;
        if (outputs.length !== batch.length) {
          const error = new Error(`a batch of ${batch.length} answered ${outputs.length} results`);
          for (const queued of batch) queued.reject(error);
          return;
        }
        for (let i = 0; i < batch.length; i++) batch[i]!.resolve(outputs[i]!);
      },
      (error: unknown) => {
        if (settle()) { for (const queued of batch) queued.reject(error); }
      },
    );
    // A free slot takes whatever arrives during the next I/O turn.
    schedule();
  };

  const batcher = (input: In) =>
    new Promise<Out>((resolve, reject) => {
      queue.push({ input, resolve, reject });
      schedule();
    });
  return Object.defineProperty(batcher, 'statements', { get: () => statements }) as Batcher<In, Out>;
}
