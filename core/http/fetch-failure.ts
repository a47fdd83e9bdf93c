/**
 * A failed fetch in words a person can act on: undici's "fetch failed" says nothing by itself, its cause
 * does (ECONNREFUSED, ENOTFOUND, a certificate error...).
 *
 * @module
 */

/**
 * @param error What fetch threw.
 * @param timeoutMs The attempt's time limit, named when it ran out.
 * @returns "no answer within 10000 ms", or the message and its cause's code, e.g. "fetch failed (ECONNREFUSED)".
 */
export function describeFetchFailure(error: unknown, timeoutMs: number): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === 'TimeoutError') return `no answer within ${timeoutMs} ms`;
  const cause = error.cause instanceof Error ? ` (${(error.cause as Error & { code?: string }).code ?? error.cause.message})` : '';
  return `${error.message}${cause}`;
}
