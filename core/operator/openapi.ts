/**
 * The operator listener's OpenAPI 3.1 document, built from the operator endpoint table, as the public one
 * is built from the public table. Served at GET /openapi.json on the operator listener.
 *
 * @module
 */
import { toJsonSchema } from '@valibot/to-json-schema';
import type { OperatorRoute } from './endpoints.ts';
import { OPERATOR_ERRORS } from './errors.ts';

type Json = Record<string, unknown>;

const ERROR_SCHEMA = {
  type: 'object',
  required: ['code', 'message', 'resolution'],
  additionalProperties: false,
  properties: {
    code: { type: 'string', description: 'The operator codes, or a public code for a malformed request (invalid_request, payload_too_large, ...).' },
    message: { type: 'string' },
    resolution: { type: 'string' },
  },
};

const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });

/** The OpenAPI path of a route: `:version` becomes `{version}`. */
const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

function operation(route: OperatorRoute): Json {
  const params = [
    ...[...route.path.matchAll(/:(\w+)/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } })),
    ...(route.query ?? []).map((name) => ({ name, in: 'query', required: false, schema: { type: 'string' } })),
  ];
  const errors: Json = {
    '400': errorResponse('The request body is not what the operation takes; the message names the field.'),
    '401': errorResponse(OPERATOR_ERRORS.unauthorized.when),
    '403': errorResponse(OPERATOR_ERRORS.forbidden.when),
    '429': errorResponse(OPERATOR_ERRORS.too_many_failures.when),
  };
  if (route.path.includes(':version')) errors['404'] = errorResponse(OPERATOR_ERRORS.release_not_found.when);
  if (route.path.includes(':id')) errors['404'] = errorResponse(OPERATOR_ERRORS.feedback_not_found.when);
  if (route.operationId === 'publishRelease') {
    const refusals = [OPERATOR_ERRORS.release_exists, OPERATOR_ERRORS.release_not_higher, OPERATOR_ERRORS.release_same_msi_version];
    errors['409'] = errorResponse(refusals.map((refusal) => refusal.when).join(' Or: '));
  }
  if (route.operationId === 'setReleaseRollout') errors['409'] = errorResponse(OPERATOR_ERRORS.release_pulled.when);
  if (route.path.includes(':session')) errors['404'] = errorResponse(OPERATOR_ERRORS.order_not_found.when);
  if (route.path.endsWith('/revoke') || route.path.endsWith('/reinstate')) errors['409'] = errorResponse(OPERATOR_ERRORS.order_not_paid.when);
  if (route.operationId === 'upgradeOrder') errors['409'] = errorResponse(`${OPERATOR_ERRORS.order_not_paid.when} Or: ${OPERATOR_ERRORS.order_revoked.when}`);
  if (route.operationId === 'reconcileOrders') errors['501'] = errorResponse(OPERATOR_ERRORS.reconcile_unavailable.when);
  return {
    operationId: route.operationId,
    summary: route.summary,
    ...(params.length > 0 ? { parameters: params } : {}),
    ...(route.body
      ? { requestBody: { required: route.bodyOptional !== true, content: { 'application/json': { schema: toJsonSchema(route.body, { target: 'draft-2020-12' }) } } } }
      : {}),
    responses: { [String(route.status)]: { description: 'Done.', content: { 'application/json': { schema: { type: 'object' } } } }, ...errors },
  };
}

/** The document. */
export function buildOperatorOpenApi(routes: readonly OperatorRoute[]): Json {
  const paths: Record<string, Json> = {};
  for (const route of routes) (paths[openApiPath(route.path)] ??= {})[route.method.toLowerCase()] = operation(route);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Operator API',
      version: '1.0.0',
      description: 'The back office of the converter site API, on its own listener (OPERATOR_PORT); never on the public port.',
    },
    security: [{ operatorToken: [] }],
    paths,
    components: {
      securitySchemes: { operatorToken: { type: 'http', scheme: 'bearer', description: 'OPERATOR_TOKEN' } },
      schemas: { Error: ERROR_SCHEMA },
    },
  };
}
