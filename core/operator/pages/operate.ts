/**
 * The pages' way into the operator API: an operation of the endpoint table, called with the JSON body a
 * client of the API would send. Pages never change storage any other way, so a page action is exactly
 * the API's operation: same checks, same errors, same audit entry.
 *
 * @module
 */
import { AnsweringError } from '../../errors.ts';
import { JSON_TYPE, type CoreRequest } from '../../http.ts';
import type { OperatorContext, OperatorHandler } from '../context.ts';
import { OPERATOR_ROUTES } from '../endpoints.ts';

export interface OperationInput {
  params?: Record<string, string>;
  body?: unknown;
  query?: string;
}

/** An operation's answer: its JSON value, or the error body's message and resolution. */
export type Outcome =
  | { ok: true; status: number; value: unknown }
  | { ok: false; status: number; code: string; message: string; resolution: string };

const decoder = new TextDecoder();

/** Binds the operations of the endpoint table to a context, by operationId. */
export function bindOperations(context: OperatorContext): (operationId: string) => OperatorHandler {
  const handlers = new Map(OPERATOR_ROUTES.map((route) => [route.operationId, route.create(context)]));
  return (operationId) => {
    const handler = handlers.get(operationId);
    if (!handler) throw new Error(`no operator operation ${operationId}`);
    return handler;
  };
}

/**
 * Runs an operation for a page request.
 *
 * @param handler The operation.
 * @param from The page's request (its client, request id and so audit entry).
 * @param input The path parameters, JSON body and query string the API request would carry.
 * @throws What the operation throws that is not an answer (a storage fault): the pipeline answers 500.
 */
export async function runOperation(handler: OperatorHandler, from: CoreRequest, input: OperationInput = {}): Promise<Outcome> {
  const request: CoreRequest = {
    method: input.body === undefined ? 'GET' : 'POST',
    path: from.path,
    query: input.query,
    headers: input.body === undefined ? {} : { 'content-type': JSON_TYPE },
    body: input.body === undefined ? undefined : JSON.stringify(input.body),
    clientIp: from.clientIp,
    requestId: from.requestId,
    clientKey: from.clientKey,
  };
  let response;
  try {
    response = await handler(request, input.params ?? {});
  } catch (error) {
    if (!(error instanceof AnsweringError)) throw error;
    response = error.toResponse();
  }
  const text = typeof response.body === 'string' ? response.body : response.body === null ? 'null' : decoder.decode(response.body);
  const value = JSON.parse(text) as Record<string, unknown>;
  if (response.status < 400) return { ok: true, status: response.status, value };
  return { ok: false, status: response.status, code: String(value['code']), message: String(value['message']), resolution: String(value['resolution']) };
}
