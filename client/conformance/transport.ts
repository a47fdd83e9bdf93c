/**
 * How the kit sends requests: over fetch to a base URL or to an in-process function, as one client
 * address or as synthetic ones (198.18.0.0/15 in a header the target trusts), pacing itself against the
 * spec's quota (120 requests per client per 60 seconds) from the rate-limit headers the target sends,
 * within the run's bounds (bounds.ts).
 */
import { type Answer, CheckFailure } from './answer.ts';
import { boundedAnswer, boundsOf } from './bounds.ts';
import type { ConformanceOptions, FetchLike } from './types.ts';

/** Origin of the requests when the target is a function and no base URL is given. */
const IN_PROCESS_ORIGIN = 'http://conformance.test';
/** The spec's window, waited when a target sends no usable reset time. */
const WINDOW_SECONDS = 60;

/** One request of a check. */
export interface Send {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** True for the requests meant to run into the limit: no waiting for the quota, a 429 is returned. */
  unpaced?: boolean;
}

export interface Transport {
  /** The base URL requests are resolved against. */
  baseUrl: string;
  /** Whether each `newAddress()` is a distinct client to the target. */
  distinctClients: boolean;
  /** A client address for a check (null: the kit's own address, when no header is used). */
  newAddress(): string | null;
  send(address: string | null, request: Send): Promise<Answer>;
  /** A fetch as the kit's own address, for the payment hook. */
  fetchAs(address: string | null): FetchLike;
  /** Milliseconds left before the run's deadline. */
  remaining(): number;
  /** The run's deadline, in ms. */
  readonly deadlineMs: number;
  /** Aborted at the run's deadline or its end. */
  readonly signal: AbortSignal;
  /** Ends the run: whatever is still pending is aborted, the deadline's timer cleared. */
  close(): void;
}

/** Addresses in 198.18.0.0/15. */
const SYNTHETIC_RANGE = 0x20000;

/** The n-th synthetic address in 198.18.0.0/15 (RFC 2544 benchmarking space), from 198.18.0.0, wrapping. */
export function syntheticAddress(n: number): string {
  const value = 0xc6120000 + (n % SYNTHETIC_RANGE);
  return [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255].join('.');
}

/**
 * Why a 429 is not the rate limit, or null: an error code other than rate_limited is a cap on what one
 * client holds (too_many_checkouts, too_much_feedback, budget_exhausted), which no wait of a window lifts.
 */
function capRefusal(answer: Answer): string | null {
  if (answer.status !== 429) return null;
  const body = answer.json;
  const field = (name: string) => {
    const value = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[name] : undefined;
    return typeof value === 'string' ? value : undefined;
  };
  const code = field('code');
  if (code === undefined || code === 'rate_limited') return null;
  const retryAfter = answer.headers.get('retry-after');
  const said = `${answer.method} ${answer.path} was refused 429 ${code}${field('message') === undefined ? '' : ` ("${field('message')!.slice(0, 200)}")`}`;
  const wait = retryAfter === null ? 'until it lifts' : `${retryAfter} s (Retry-After)`;
  if (code === 'too_many_checkouts') {
    return `${said}: not the rate limit but the target's cap on the unpaid checkout sessions one address holds. ` +
      `A run of the kit leaves the sessions it opens unpaid, so an earlier run from this address may have used the cap: ` +
      `run with --client-address-header (a fresh address per check) or --pay-url (the kit pays the sessions it opens), ` +
      `or wait ${wait} for them to expire`;
  }
  return `${said}: not the rate limit but a cap of the target on what one client holds, so the kit does not wait for it; wait ${wait}, or run with --client-address-header`;
}

function integerHeader(headers: Headers, name: string): number | null {
  const value = headers.get(name);
  return value !== null && /^\d+$/.test(value.trim()) ? Number(value) : null;
}

/**
 * The next synthetic address of this process: runs in one process never reuse an address (a reused one
 * would not start with a full quota), and a random start keeps two processes apart.
 */
let nextSynthetic = Math.floor(Math.random() * SYNTHETIC_RANGE);

/** Creates the transport for the options; throws on options that name no target. */
export function createTransport(options: ConformanceOptions): Transport {
  if (options.baseUrl === undefined && options.fetch === undefined) throw new TypeError('runConformance needs { baseUrl } or { fetch }');
  const baseUrl = (options.baseUrl ?? IN_PROCESS_ORIGIN).replace(/\/+$/, '');
  const target: FetchLike = options.fetch ?? ((request) => fetch(request));
  const header = options.clientAddressHeader?.toLowerCase();
  const log = options.log ?? (() => undefined);
  const bounds = boundsOf(options);
  // The run's end (its deadline, or the report) ends a wait at once: no timer of the run outlives it.
  const sleep = options.sleep ?? ((ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        bounds.signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      bounds.signal.addEventListener('abort', done, { once: true });
      if (bounds.signal.aborted) done();
    }));
  /** Per address: the quota left and the seconds to the reset (from `header`), as last answered. */
  const quota = new Map<string, { remaining: number; reset: number; header: string }>();

  /**
   * Waits for an address's window to reset: as long as the target says and a second, but never past the
   * spec's window (and a second) nor the run's deadline. A target that asked for longer fails the check
   * that had to wait, with its figure.
   */
  const waitFor = async (address: string | null, said: number, header: string) => {
    const seconds = Math.min(said, WINDOW_SECONDS) + 1;
    const ms = Math.min(seconds * 1000, bounds.remaining());
    log(`waiting ${Math.ceil(ms / 1000)} s for the rate-limit window${address === null ? '' : ` of ${address}`} to reset`);
    await sleep(ms);
    quota.delete(address ?? '');
    if (said > WINDOW_SECONDS) {
      throw new CheckFailure(
        `the target asked to wait ${said} s (${header}) for its quota; the spec's window is ${WINDOW_SECONDS} s, so the kit waited ${seconds} s and stops this check`,
      );
    }
  };

  const raw = async (address: string | null, request: Send): Promise<Answer> => {
    const method = request.method ?? 'GET';
    const headers = new Headers(request.headers);
    if (header !== undefined && address !== null) headers.set(header, address);
    const init: RequestInit = { method, headers, redirect: 'manual' };
    if (request.body !== undefined) init.body = request.body;
    const answer = await boundedAnswer(bounds, method, request.path, (signal) => target(new Request(baseUrl + request.path, { ...init, signal })));
    const remaining = integerHeader(answer.headers, 'ratelimit-remaining');
    const reset = integerHeader(answer.headers, 'ratelimit-reset');
    if (remaining !== null) {
      quota.set(address ?? '', { remaining, reset: reset ?? WINDOW_SECONDS, header: reset === null ? 'no RateLimit-Reset' : 'RateLimit-Reset' });
    }
    return answer;
  };

  const send = async (address: string | null, request: Send): Promise<Answer> => {
    if (request.unpaced) return raw(address, request);
    const known = quota.get(address ?? '');
    if (known && known.remaining <= 0) await waitFor(address, known.reset, known.header);
    let answer = await raw(address, request);
    const cap = capRefusal(answer);
    if (cap !== null) throw new CheckFailure(cap);
    // A 429 no check asked for: the quota was used elsewhere; wait as the target says, twice at most.
    for (let retry = 0; answer.status === 429 && retry < 2; retry++) {
      const retryAfter = integerHeader(answer.headers, 'retry-after');
      const reset = integerHeader(answer.headers, 'ratelimit-reset');
      const [seconds, header] = retryAfter !== null
        ? [retryAfter, 'Retry-After']
        : reset !== null
        ? [reset, 'RateLimit-Reset']
        : [WINDOW_SECONDS, 'no Retry-After'];
      await waitFor(address, seconds, header);
      answer = await raw(address, request);
      const cap = capRefusal(answer);
      if (cap !== null) throw new CheckFailure(cap);
    }
    return answer;
  };

  return {
    baseUrl,
    distinctClients: header !== undefined,
    newAddress: () => (header === undefined ? null : syntheticAddress(nextSynthetic++)),
    send,
    remaining: () => bounds.remaining(),
    deadlineMs: bounds.deadlineMs,
    signal: bounds.signal,
    close: () => bounds.close(),
    fetchAs: (address) => async (request) => {
      const url = new URL(request.url);
      const body = request.body === null ? undefined : await request.text();
      const headers: Record<string, string> = {};
      request.headers.forEach((value, name) => void (headers[name] = value));
      const answer = await send(address, {
        method: request.method,
        path: url.pathname + url.search,
        headers,
        ...(body === undefined ? {} : { body }),
      });
      return new Response(answer.status === 204 || answer.status === 304 || answer.method === 'HEAD' ? null : answer.text, {
        status: answer.status,
        headers: answer.headers,
      });
    },
  };
}
