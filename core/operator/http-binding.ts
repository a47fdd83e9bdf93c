/**
 * A declared operator operation bound to HTTP: path segments from the router, the query string (each
 * parameter at most once), the JSON body, and the answer as JSON with the declared status.
 *
 * @module
 */
import { readJsonObject } from '../http/body.ts';
import { type CoreRequest, type CoreResponse, json } from '../http/http.ts';
import type { OperatorContext } from './context.ts';
import { OperatorError } from './errors.ts';
import { invoke } from './invoke.ts';
import { refuseBadQuery } from './path-param.ts';
import type { AnyOperatorOperation, Caller } from './operation.ts';

/** The query string as an object of single values; a repeated parameter, a malformed escape or a NUL is refused. */
export function queryOf(request: CoreRequest): Record<string, string> {
  const query: Record<string, string> = {};
  refuseBadQuery(request.query ?? '');
  for (const [name, value] of new URLSearchParams(request.query ?? '')) {
    if (name in query) throw new OperatorError('invalid_query', `Query parameter "${name}" is given more than once.`);
    query[name] = value;
  }
  return query;
}

/** Who sent a request (the operator's name: named-tokens.ts), for the audit trail. */
export const callerOf = (request: CoreRequest, actor: string): Caller => ({ requestId: request.requestId ?? '', actor });

/**
 * The router handler of an operation.
 *
 * @param operation The declared operation.
 * @param context The operator context it runs in.
 * @param actorOf The name of the operator whose token the request carries.
 */
export function httpHandler(operation: AnyOperatorOperation, context: OperatorContext, actorOf: (request: CoreRequest) => string) {
  return async (request: CoreRequest, params: Record<string, string>): Promise<CoreResponse> => {
    const query = operation.query ? queryOf(request) : {};
    const body = operation.body ? readJsonObject(request, context.bodyLimit, operation.bodyOptional !== true) : undefined;
    return json(operation.status, await invoke(operation, context, { params, query, body }, callerOf(request, actorOf(request))));
  };
}
