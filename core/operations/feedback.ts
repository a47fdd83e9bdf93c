/**
 * POST /api/v1/feedback: feature requests, bug reports, general feedback and reviews.
 *
 * @module
 */
import { readJsonObject } from '../body.ts';
import type { AppContext, Operation } from '../context.ts';
import { ApiError } from '../errors.ts';
import { encodeJson, JSON_TYPE } from '../http.ts';
import { FeedbackRequestSchema } from '../schemas/requests.ts';
import { isNotBlank } from '../schemas/stored-text.ts';
import { parseOrThrow } from '../validate.ts';

/** A description that is absent, null, empty or only white space. */
function isMissingDescription(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && !isNotBlank(value));
}

/** Validates and stores one submission; answers 201 {success: true}. */
export function feedback(context: AppContext): Operation {
  const created = encodeJson({ success: true });
  return async (request) => {
    const body = readJsonObject(request, context.bodyLimit, true) as Record<string, unknown>;
    if (isMissingDescription(body['description'])) {
      throw new ApiError('description_required', 'Field "description" is required and must not be blank.');
    }
    const input = parseOrThrow(FeedbackRequestSchema, body);
    await context.storage.addFeedback({
      type: input.type ?? 'general',
      description: input.description,
      email: input.email ?? null,
      appVersion: input.appVersion ?? null,
      rating: input.rating ?? null,
      receivedAt: context.clock.now(),
    });
    context.count('feedback_stored');
    return { status: 201, headers: { 'content-type': JSON_TYPE }, body: created };
  };
}
