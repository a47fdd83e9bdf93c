/**
 * The pages' way into the operator API: a declared operation (core/operator/operation.ts) called with what a
 * form or a page's filters give, checked by the operation's own schemas. Pages never change storage any other
 * way, so a page action is exactly the API's operation: same checks, same errors, same audit entry.
 *
 * @module
 */
import type { CoreRequest } from '../../core/http/http.ts';
import type { OperatorContext } from '../../core/operator/context.ts';
import { callerOf } from '../../core/operator/http-binding.ts';
import { attempt, type Outcome } from '../../core/operator/invoke.ts';
import type { OperatorOperation, PathParams } from '../../core/operator/operation.ts';

/** A body as a form gives it: each field its value, or the text typed where another type was wanted (the schema refuses it by name). */
export type FormBody<BodyIn> = { [K in keyof BodyIn]?: BodyIn[K] | string };

/** What a page hands an operation. */
export interface OperationInput<Path extends string, BodyIn> {
  readonly params?: Readonly<Record<PathParams<Path>, string>>;
  readonly query?: URLSearchParams;
  readonly body?: FormBody<BodyIn>;
}

/** Runs operations for one page request (its request id and its session's operator go to the audit trail). */
export type Operate = <Path extends string, Query, Body, Output, QueryIn, BodyIn>(
  operation: OperatorOperation<Path, Query, Body, Output, QueryIn, BodyIn>,
  input?: OperationInput<Path, BodyIn>,
) => Promise<Outcome<Output>>;

/** The operations of `context`, run for the page request `from` of the operator `actor` (its session's). */
export function operateFor(context: OperatorContext, from: CoreRequest, actor: string): Operate {
  return (operation, input = {}) =>
    attempt(operation, context, { params: input.params ?? {}, query: Object.fromEntries(input.query ?? []), body: input.body }, callerOf(from, actor));
}
