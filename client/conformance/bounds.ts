/**
 * The kit's bounds against any target (docs/conformance.md "Against any target"): the kit exists to test
 * other, possibly broken, implementations, so no answer may hold it or fill its memory. Each request (its
 * body included) has a timeout, the run has a deadline, a body is read up to a cap, and a wait for the
 * rate-limit window is never longer than the spec's window, whatever the target says.
 */
import { type Answer, CheckFailure } from './answer.ts';
import type { ConformanceOptions } from './types.ts';

/** 10 s a request, 10 minutes a run, 1 MiB a body. */
export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_DEADLINE_MS = 600_000;
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** The run's clock and limits. */
export interface Bounds {
  timeoutMs: number;
  deadlineMs: number;
  maxBodyBytes: number;
  /** Milliseconds left of the run. */
  remaining(): number;
  /** Resolves after `ms` (the timer of timeouts); `cancel` ends it early. */
  after(ms: number): { done: Promise<void>; cancel(): void };
  /**
   * Aborted when the run's deadline passes (on the real clock; with an injected `now`, only by `close`) or
   * when the run ends: every request and every wait of the run listens to it, so nothing of the run
   * outlives its deadline.
   */
  signal: AbortSignal;
  /** Ends the run: aborts `signal` (what is still pending gives up) and clears the deadline's timer. */
  close(): void;
}

const positive = (value: number | undefined, name: string, fallback: number): number => {
  if (value === undefined) return fallback;
  if (!(value > 0) || !Number.isFinite(value)) throw new TypeError(`runConformance: ${name} must be a positive number, not ${String(value)}`);
  return value;
};

/** The bounds of a run, from its options; the run's time starts now. */
export function boundsOf(options: ConformanceOptions): Bounds {
  const now = options.now ?? (() => Date.now());
  const deadlineMs = positive(options.deadlineMs, 'deadlineMs', DEFAULT_DEADLINE_MS);
  const timeoutMs = positive(options.timeoutMs, 'timeoutMs', DEFAULT_TIMEOUT_MS);
  const maxBodyBytes = positive(options.maxBodyBytes, 'maxBodyBytes', DEFAULT_MAX_BODY_BYTES);
  // Every option is checked before the deadline's timer is armed: a refused option leaves no timer behind.
  const endsAt = now() + deadlineMs;
  const run = new AbortController();
  const deadline = options.now === undefined ? setTimeout(() => run.abort(), deadlineMs) : undefined;
  return {
    signal: run.signal,
    close() {
      clearTimeout(deadline);
      run.abort();
    },
    timeoutMs,
    deadlineMs,
    maxBodyBytes,
    remaining: () => Math.max(0, endsAt - now()),
    after(ms) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      // Kept referenced while its request is pending (a target that never answers holds nothing else
      // open), and cleared as soon as the request ends.
      const done = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, ms);
      });
      return { done, cancel: () => clearTimeout(timer) };
    },
  };
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/**
 * Sends a request and reads its answer within the request's timeout (or what is left of the run), and its
 * body up to the cap: past either, the check fails with what happened, and the request is aborted.
 */
export async function boundedAnswer(bounds: Bounds, method: string, path: string, send: (signal: AbortSignal) => Promise<Response>): Promise<Answer> {
  const left = bounds.remaining();
  if (left <= 0) throw new CheckFailure(`${method} ${path} was not sent: the run's deadline of ${seconds(bounds.deadlineMs)} passed (--deadline)`);
  const limit = Math.min(bounds.timeoutMs, left);
  const byDeadline = limit < bounds.timeoutMs;
  const controller = new AbortController();
  let expire: (deadline: boolean) => void = () => undefined;
  const expired = new Promise<never>((_, reject) => {
    expire = (deadline) => {
      controller.abort();
      reject(
        new CheckFailure(
          deadline
            ? `${method} ${path} had no whole answer when the run's deadline of ${seconds(bounds.deadlineMs)} passed (--deadline)`
            : `${method} ${path} had no whole answer within ${seconds(bounds.timeoutMs)} (--timeout): the spec's clients would give up too`,
        ),
      );
    };
  });
  // Whichever loses the race must not surface as an unhandled rejection.
  expired.catch(() => undefined);
  const timer = bounds.after(limit);
  void timer.done.then(() => expire(byDeadline));
  // The run's end aborts this request too, whatever its own timer says.
  const onRunEnd = () => expire(true);
  bounds.signal.addEventListener('abort', onRunEnd, { once: true });
  if (bounds.signal.aborted) onRunEnd();
  try {
    return await Promise.race([readBounded(method, path, send(controller.signal), bounds.maxBodyBytes, controller), expired]);
  } finally {
    timer.cancel();
    bounds.signal.removeEventListener('abort', onRunEnd);
  }
}

/** Reads a response's body up to `max` bytes; past it the body is cancelled and the check fails. */
async function readBounded(method: string, path: string, pending: Promise<Response>, max: number, controller: AbortController): Promise<Answer> {
  const response = await pending;
  let text = '';
  if (method !== 'HEAD' && response.body !== null) {
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > max) {
        controller.abort();
        await reader.cancel().catch(() => undefined);
        throw new CheckFailure(
          `${method} ${path} sent a body of more than ${max} bytes; the kit stops reading there (--max-body): no answer of the spec is that large`,
        );
      }
      text += decoder.decode(value, { stream: true });
    }
    text += decoder.decode();
  }
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { method, path, status: response.status, headers: response.headers, text, json };
}
