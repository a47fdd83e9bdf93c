/**
 * Readiness: whether this instance should get traffic, answered from memory. The storage is asked a
 * trivial query at most once a second, however many balancers probe, and never once shutdown began.
 *
 * @module
 */
import type { Logger } from '../ports/ports.ts';

/** Why the instance is not ready, or that it is. */
export type ReadinessState =
  | { readonly ready: true }
  | { readonly ready: false; readonly code: 'shutting_down' | 'storage_unavailable'; readonly message: string };

export interface Readiness {
  /**
   * The state: from memory when storage was asked less than `maxAgeMs` ago, else after one ping that
   * concurrent callers share.
   */
  check(): Promise<ReadinessState>;
  /** Shutdown began: not ready from now on, without asking the storage. */
  drain(): void;
  /** Whether `drain` was called. */
  readonly draining: boolean;
}

const READY: ReadinessState = Object.freeze({ ready: true });
const SHUTTING_DOWN: ReadinessState = Object.freeze({
  ready: false,
  code: 'shutting_down',
  message: 'This instance is shutting down.',
});

const STORAGE_FAILED: ReadinessState = Object.freeze({
  ready: false,
  code: 'storage_unavailable',
  message: 'The storage did not answer a trivial query.',
});

/**
 * Creates the readiness state of one app.
 *
 * @param ping Asks the storage a trivial query; throws (or rejects) when it cannot answer.
 * @param now Milliseconds since the epoch (the app's clock, so tests move time by hand).
 * @param logger Where a change between ready and not ready is reported.
 * @param onFailure Told of each ping that failed (the storage-error count).
 * @param maxAgeMs How long one answer of the storage is trusted; 1000 ms by default.
 */
export function createReadiness(
  ping: () => Promise<void>,
  now: () => number,
  logger: Logger,
  onFailure: () => void = () => {},
  maxAgeMs = 1000,
): Readiness {
  let draining = false;
  let startedAt = -Infinity;
  let last: ReadinessState = READY;
  let inflight: Promise<ReadinessState> | null = null;

  const settle = (state: ReadinessState, error?: unknown): ReadinessState => {
    if (state.ready !== last.ready) {
      if (state.ready) logger.info('ready: the storage answers again');
      // The driver's words go to the log only: the probe is public, and they may name hosts or SQL.
      else logger.warn('not ready: the storage does not answer', { error: describe(error) });
    }
    last = state;
    return draining ? SHUTTING_DOWN : state;
  };
  const failed = (error: unknown): ReadinessState => {
    onFailure();
    return settle(STORAGE_FAILED, error);
  };

  const refresh = (): Promise<ReadinessState> => {
    let answer: Promise<void>;
    try {
      answer = ping();
    } catch (error) {
      // A port that throws instead of rejecting.
      return Promise.resolve(failed(error));
    }
    const pending = answer.then(() => settle(READY), failed);
    inflight = pending;
    void pending.finally(() => {
      if (inflight === pending) inflight = null;
    });
    return pending;
  };

  return {
    get draining() {
      return draining;
    },
    drain() {
      draining = true;
    },
    async check() {
      if (draining) return SHUTTING_DOWN;
      const at = now();
      const age = at - startedAt;
      if (age < maxAgeMs) return inflight ?? last;
      if (inflight) {
        // Asked over a second ago and still silent: say so now rather than keep a balancer waiting.
        return { ready: false, code: 'storage_unavailable', message: `The storage has not answered for ${Math.floor(age)} ms.` };
      }
      startedAt = at;
      return refresh();
    },
  };
}

/** A short description of a ping failure: the driver's message, never a stack. */
function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
