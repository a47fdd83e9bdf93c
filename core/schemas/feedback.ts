/**
 * The answer to accepted feedback (POST /api/v1/feedback).
 *
 * @module
 */
import * as v from 'valibot';
import type { Assert, Equal } from './exact.ts';

/** The answer to accepted feedback (POST /api/v1/feedback, 201). */
export interface FeedbackSuccess {
  success: true;
}
const feedbackSuccess = v.strictObject({ success: v.literal(true) });
type _FeedbackSuccess = Assert<Equal<v.InferOutput<typeof feedbackSuccess>, FeedbackSuccess>>;
export const FeedbackSuccessSchema: v.GenericSchema<FeedbackSuccess> = feedbackSuccess;
