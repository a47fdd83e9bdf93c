/**
 * POST /api/v1/feedback: feature requests, bug reports, general feedback and reviews.
 *
 * @module
 */
import { readJsonObject } from '../http/body.ts';
import { clientKeyOf } from '../clients/client-ip.ts';
import { feedbackRefused } from '../budgets/budget-refusals.ts';
import { type BudgetLimits, dayOf, feedbackBudgetBytes } from '../budgets/budgets.ts';
import type { AppContext, Operation } from '../context.ts';
import { ApiError } from '../http/errors.ts';
import { encodeJson, JSON_TYPE } from '../http/http.ts';
import type { FeedbackEntry } from '../ports/ports.ts';
import { FeedbackRequestSchema } from '../schemas/requests.ts';
import { isNotBlank } from '../schemas/stored-text.ts';
import { parseOrThrow } from '../http/validate.ts';
import { isWindowsClient } from '../clients/platform.ts';

/** A description that is absent, null, empty or only white space. */
function isMissingDescription(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && !isNotBlank(value));
}

/**
 * Validates and stores one submission within the client's and the day's feedback budget
 * (core/budgets/budgets.ts); answers 201 {success: true}, or 429 when a budget refuses it.
 */
export function feedback(context: AppContext): Operation {
  const created = encodeJson({ success: true });
  const { budgets } = context;
  const limits: BudgetLimits = {
    perClient: budgets.feedbackBytesPerClientPerDay,
    total: budgets.feedbackBytesPerDay,
    sharePercent: budgets.clientSharePercent,
  };
  return async (request) => {
    const body = readJsonObject(request, context.bodyLimit, true) as Record<string, unknown>;
    if (isMissingDescription(body['description'])) {
      throw new ApiError('description_required', 'Field "description" is required and must not be blank.');
    }
    const input = parseOrThrow(FeedbackRequestSchema, body);
    const now = context.clock.now();
    const entry: FeedbackEntry = {
      type: input.type ?? 'general',
      description: input.description,
      email: input.email ?? null,
      appVersion: input.appVersion ?? null,
      rating: input.rating ?? null,
      receivedAt: now,
    };
    const bytes = feedbackBudgetBytes(entry);
    // The key the client is counted by, as the rate limit's: a storage that shares the counts stores a keyed hash of it.
    const client = clientKeyOf(request);
    const refusal = await context.storage.intake.addFeedback(entry, { client, day: dayOf(now), bytes, ...limits });
    if (refusal) throw feedbackRefused(refusal, limits, bytes, now);
    context.count('feedback_stored');
    try {
      // An app on the update files names its install id: its report counts by install id (not stored with the entry).
      await context.releaseWatch.reportStored(request, entry, isWindowsClient(request.headers), input.installId);
    } catch (error) {
      // The entry is stored: a fault of the counts or the halt rule is logged, not answered.
      context.logger.error('the halt rule could not decide on a bug report', { error: String(error), requestId: request.requestId });
    }
    return { status: 201, headers: { 'content-type': JSON_TYPE }, body: created };
  };
}
