/**
 * Turns valibot issues into an `invalid_request` error whose message names the field.
 *
 * @module
 */
import * as v from 'valibot';
import { ApiError, type ErrorCode } from './errors.ts';

/** "rating", "items.0.name", or "body" for the value as a whole. */
function fieldName(issue: v.BaseIssue<unknown>): string {
  return v.getDotPath(issue) ?? 'body';
}

/** A sentence describing the first issue, naming the field. */
export function describeIssue(issue: v.BaseIssue<unknown>, allowed: readonly string[]): string {
  const field = fieldName(issue);
  if (issue.type === 'strict_object' && issue.expected === 'never') {
    const list = allowed.length > 0 ? `only ${allowed.join(', ')}` : 'no fields';
    return `Unknown field "${field}": this request accepts ${list}.`;
  }
  if (field === 'body') return `The body ${issue.message}.`;
  const missing = issue.received === 'undefined' && issue.kind === 'schema';
  return missing ? `Field "${field}" is required.` : `Field "${field}" ${issue.message}.`;
}

/** The fields an object schema accepts, for the message of an unknown one. */
function fieldsOf(schema: v.GenericSchema): string[] {
  return 'entries' in schema ? Object.keys((schema as unknown as v.ObjectSchema<v.ObjectEntries, undefined>).entries) : [];
}

/** Validates input, or throws `code` with the sentence `describe` makes of the first issue. */
function parseWith<S extends v.GenericSchema>(
  schema: S,
  input: unknown,
  code: ErrorCode,
  describe: (issue: v.BaseIssue<unknown>) => string,
): v.InferOutput<S> {
  const result = v.safeParse(schema, input, { abortEarly: true });
  if (result.success) return result.output;
  throw new ApiError(code, describe(result.issues[0]));
}

/**
 * Validates input against a schema.
 *
 * @param schema The request schema.
 * @param input The parsed JSON body or query.
 * @param code The error code to throw with.
 * @returns The typed output.
 */
export function parseOrThrow<S extends v.GenericSchema>(
  schema: S,
  input: unknown,
  code: ErrorCode = 'invalid_request',
): v.InferOutput<S> {
  return parseWith(schema, input, code, (issue) => describeIssue(issue, fieldsOf(schema)));
}

/**
 * Validates one query parameter's value.
 *
 * @param schema The parameter's schema.
 * @param name The parameter's name, for the message.
 * @param value The value.
 * @param code The error code to throw with.
 * @returns The typed output.
 * @throws ApiError whose message is `Query parameter "<name>" <the schema's message>.`
 */
export function parseQueryOrThrow<S extends v.GenericSchema>(
  schema: S,
  name: string,
  value: unknown,
  code: ErrorCode = 'invalid_request',
): v.InferOutput<S> {
  return parseWith(schema, value, code, (issue) => `Query parameter "${name}" ${issue.message}.`);
}
