/**
 * The error body every failed request answers with, and its schema.
 *
 * @module
 */
import * as v from 'valibot';
import { type ApiErrorBody, ERROR_CATALOGUE, type ErrorCode } from '../http/errors.ts';
import type { Assert, Equal } from './exact.ts';

/** Every error code the API answers with. */
export const ERROR_CODES: readonly ErrorCode[] = Object.keys(ERROR_CATALOGUE) as ErrorCode[];

/** Every code with its status and when it happens, as a Markdown list. */
const CODE_LIST = ERROR_CODES.map(
  (code) => `- \`${code}\` (${ERROR_CATALOGUE[code].status}): ${ERROR_CATALOGUE[code].when}`,
).join('\n');

const apiError = v.strictObject({
  code: v.pipe(
    v.picklist(ERROR_CODES),
    v.description(`Stable machine-readable error code, one of:\n\n${CODE_LIST}`),
  ),
  message: v.pipe(v.string(), v.description('Human-readable summary.')),
  resolution: v.pipe(v.string(), v.description('Suggested next step for the client.')),
});
type _ApiError = Assert<Equal<v.InferOutput<typeof apiError>, ApiErrorBody>>;

/** The body of every error response: code, message and resolution, nothing else. */
export const ApiErrorSchema: v.GenericSchema<ApiErrorBody> = apiError;
