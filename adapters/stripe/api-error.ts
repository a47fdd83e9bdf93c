/**
 * Turns Stripe failures into the API's 500: a passing fault (no answer, 5xx, 429 after the retries)
 * tells the client to retry; a refusal (bad key, unknown price) is logged loudly for the operator.
 * Nothing Stripe said reaches the client.
 *
 * @module
 */
import { ApiError } from '../../core/http/errors.ts';
import type { Logger } from '../../core/ports/ports.ts';
import { StripeError } from './client.ts';

/** The advice on a passing provider fault. */
export const RETRY_RESOLUTION = 'Retry in a few seconds: the payment provider did not answer this time. If it keeps failing, contact support.';

const PASSING = new Set(['unreachable', 'rate_limited', 'provider_error']);

/** The log fields of a failure: what Stripe said, for the operator. */
export function logFields(error: unknown): Record<string, unknown> {
  if (!(error instanceof StripeError)) return { detail: error instanceof Error ? error.message : String(error) };
  return {
    failure: error.failure,
    status: error.status,
    type: error.type,
    code: error.code,
    requestId: error.requestId,
    detail: error.message,
  };
}

/**
 * The API error for a failed Stripe call, logged.
 *
 * @param error What the call threw.
 * @param action What was attempted, for the log, e.g. "create a checkout session".
 * @param logger Where the details go.
 */
export function toApiError(error: unknown, action: string, logger: Logger): ApiError {
  if (error instanceof ApiError) return error;
  const fields = logFields(error);
  if (error instanceof StripeError && PASSING.has(error.failure)) {
    logger.warn(`stripe: could not ${action}`, fields);
    return new ApiError('internal_error', 'The payment provider did not answer in time.', RETRY_RESOLUTION);
  }
  if (error instanceof StripeError && error.failure === 'unauthorized') {
    logger.error('stripe: STRIPE_SECRET_KEY is refused (401); set a valid secret key and restart', fields);
  } else {
    logger.error(`stripe: could not ${action}`, fields);
  }
  return new ApiError('internal_error', 'The payment provider refused the request.');
}
