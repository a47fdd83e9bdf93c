/**
 * A small fetch-based Stripe API client: form-encoded requests with a pinned Stripe-Version, a timeout on every call, 429 answers
 * retried after Retry-After (or an exponential backoff), and every failure turned into a StripeError.
 * It runs wherever fetch and AbortSignal.timeout exist (Node, Deno, Bun, Workers).
 *
 * @module
 */
import { describeFetchFailure } from '../../core/http/fetch-failure.ts';
import { encodeForm, type FormValue } from './form.ts';

/** Stripe's API address. */
export const STRIPE_API_BASE = 'https://api.stripe.com';

/**
 * The Stripe API version every call asks for (the `Stripe-Version` header): the one this adapter and its
 * test stand-in were written for, so that the account's default version, which a Dashboard click can
 * move, never changes what the calls answer. Moving it is a code change (docs/payments.md).
 */
export const STRIPE_API_VERSION = '2024-06-20';

/** Why a call failed: no usable answer, or an answer that refuses the call. */
export type StripeFailure = 'unreachable' | 'rate_limited' | 'provider_error' | 'unauthorized' | 'refused' | 'bad_answer';

/**
 * A failed Stripe call, with what Stripe said (for logs; never for clients).
 *
 * @param failure The kind of failure.
 * @param message What happened, Stripe's own message when it gave one.
 * @param details The HTTP status, Stripe's error type and code, and its request id.
 */
export class StripeError extends Error {
  readonly failure: StripeFailure;
  readonly status: number | null;
  readonly type: string | null;
  readonly code: string | null;
  readonly requestId: string | null;

  constructor(
    failure: StripeFailure,
    message: string,
    details: { status?: number; type?: string | null; code?: string | null; requestId?: string | null } = {},
  ) {
    super(message);
    this.name = 'StripeError';
    this.failure = failure;
    this.status = details.status ?? null;
    this.type = details.type ?? null;
    this.code = details.code ?? null;
    this.requestId = details.requestId ?? null;
  }
}

export interface StripeClientOptions {
  secretKey: string;
  /** The API address (Stripe's by default); tests point it at a local stand-in. */
  apiBase?: string | undefined;
  /** The longest wait for one answer, in ms; 6,000 by default. */
  timeoutMs?: number;
  /** How often a 429 is retried; 2 by default. */
  maxRetries?: number;
  /** The longest wait before a retry, in ms; a longer Retry-After is not waited for. 2,000 by default. */
  maxRetryWaitMs?: number;
  /** How to wait between retries; tests inject one that records the waits. */
  sleep?: (ms: number) => Promise<void>;
  fetch?: typeof fetch;
}

/** One call. */
export interface StripeCall {
  method: 'GET' | 'POST';
  /** The path with its query, e.g. `/v1/checkout/sessions/cs_123?expand[]=payment_intent`. */
  path: string;
  form?: { readonly [key: string]: FormValue };
  idempotencyKey?: string;
}

export interface StripeClient {
  /** Sends one call and returns the parsed JSON answer; throws StripeError. */
  call(request: StripeCall): Promise<unknown>;
}

/** A fetch failure in one line: the timeout, or the network error and its cause (ECONNREFUSED, ...). */
function describeFetchError(error: unknown, timeoutMs: number): string {
  const described = describeFetchFailure(error, timeoutMs);
  return error instanceof Error && error.name === 'TimeoutError' ? described : `network error: ${described}`;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The wait before retry `attempt` (0-based): Retry-After when given, else 500 ms doubling. */
function retryWait(response: Response, attempt: number): number {
  const header = response.headers.get('retry-after');
  const seconds = header !== null && /^\d+$/.test(header.trim()) ? Number(header) : null;
  return seconds !== null ? seconds * 1000 : 500 * 2 ** attempt;
}

async function failureOf(response: Response): Promise<StripeError> {
  const requestId = response.headers.get('request-id');
  let body: { error?: { message?: string; type?: string; code?: string } } = {};
  try {
    body = (await response.json()) as typeof body;
  } catch {
    // A non-JSON error page (a proxy, an outage): the status says enough.
  }
  const error = body.error ?? {};
  const details = { status: response.status, type: error.type ?? null, code: error.code ?? null, requestId };
  const message = error.message ?? `HTTP ${response.status}`;
  if (response.status === 401) return new StripeError('unauthorized', message, details);
  if (response.status === 429) return new StripeError('rate_limited', message, details);
  if (response.status >= 500) return new StripeError('provider_error', message, details);
  return new StripeError('refused', message, details);
}

/**
 * Creates a client.
 *
 * @param options The key, the address and the time limits.
 */
export function createStripeClient(options: StripeClientOptions): StripeClient {
  const base = (options.apiBase ?? STRIPE_API_BASE).replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 6000;
  const maxRetries = options.maxRetries ?? 2;
  const maxRetryWaitMs = options.maxRetryWaitMs ?? 2000;
  const sleep = options.sleep ?? defaultSleep;
  const send = options.fetch ?? fetch;

  const attempt = async (request: StripeCall): Promise<Response> => {
    const headers: Record<string, string> = { authorization: `Bearer ${options.secretKey}`, 'stripe-version': STRIPE_API_VERSION };
    if (request.form) headers['content-type'] = 'application/x-www-form-urlencoded';
    if (request.idempotencyKey) headers['idempotency-key'] = request.idempotencyKey;
    try {
      return await send(base + request.path, {
        method: request.method,
        headers,
        ...(request.form ? { body: encodeForm(request.form) } : {}),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new StripeError('unreachable', describeFetchError(error, timeoutMs));
    }
  };

  return {
    async call(request) {
      for (let retry = 0;; retry++) {
        const response = await attempt(request);
        if (response.ok) {
          try {
            return await response.json();
          } catch (error) {
            if (error instanceof SyntaxError) throw new StripeError('bad_answer', 'the answer is not JSON');
            throw new StripeError('unreachable', describeFetchError(error, timeoutMs));
          }
        }
        const wait = retryWait(response, retry);
        const retryable = response.status === 429 && response.headers.get('stripe-should-retry') !== 'false' && retry < maxRetries && wait <= maxRetryWaitMs;
        if (!retryable) throw await failureOf(response);
        await response.body?.cancel();
        await sleep(wait);
      }
    },
  };
}
