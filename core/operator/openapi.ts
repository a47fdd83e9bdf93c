/**
 * The operator listener's OpenAPI 3.1 document, built from the declared operations (endpoints.ts) as the
 * public one is built from the public table: each path's parameters, body and answer from its schemas, and
 * exactly the errors it can answer with. Served at GET /openapi.json on the operator listener.
 *
 * @module
 */
import { toJsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { ERROR_CATALOGUE, type ErrorCode } from '../http/errors.ts';
import { OPERATOR_ERRORS, type OperatorErrorCode } from './errors.ts';
import type { AnyOperatorOperation } from './operation.ts';

type Json = Record<string, unknown>;

/** The errors every operator request may get: the token gate's, and a fault. */
const GATE_ERRORS: readonly (OperatorErrorCode | ErrorCode)[] = ['unauthorized', 'forbidden', 'too_many_failures', 'internal_error'];
/** What reading a JSON body may refuse. */
const BODY_ERRORS: readonly ErrorCode[] = ['invalid_request', 'payload_too_large', 'unsupported_media_type'];
/** What reading a path parameter may refuse. */
const PATH_ERRORS: readonly OperatorErrorCode[] = ['invalid_path'];
/** What reading the query may refuse. */
const QUERY_ERRORS: readonly (OperatorErrorCode | ErrorCode)[] = ['invalid_request', 'invalid_query'];

const catalogued = (
  code: OperatorErrorCode | ErrorCode,
) => (code in OPERATOR_ERRORS ? OPERATOR_ERRORS[code as OperatorErrorCode] : ERROR_CATALOGUE[code as ErrorCode]);

const schemaOf = (schema: v.GenericSchema) => toJsonSchema(schema, { target: 'draft-2020-12', errorMode: 'ignore' });

/** The OpenAPI path of a route: `:version` becomes `{version}`. */
const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

/** Every error an operation can answer with, by status, each status with its codes and when they happen. */
export function errorsOf(operation: AnyOperatorOperation): Map<number, (OperatorErrorCode | ErrorCode)[]> {
  const path = operation.path.includes(':') ? PATH_ERRORS : [];
  const codes = new Set([...GATE_ERRORS, ...path, ...(operation.body ? BODY_ERRORS : []), ...(operation.query ? QUERY_ERRORS : []), ...operation.errors]);
  const byStatus = new Map<number, (OperatorErrorCode | ErrorCode)[]>();
  for (const code of codes) {
    const status = catalogued(code).status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return new Map([...byStatus].sort((a, b) => a[0] - b[0]));
}

function errorResponse(codes: readonly (OperatorErrorCode | ErrorCode)[]): Json {
  return {
    description: codes.map((code) => `${code}: ${catalogued(code).when}`).join(' '),
    content: {
      'application/json': {
        schema: {
          allOf: [{ $ref: '#/components/schemas/Error' }, { type: 'object', properties: { code: { enum: codes } } }],
        },
      },
    },
  };
}

function queryParameters(schema: v.GenericSchema): Json[] {
  const properties = (schemaOf(schema) as { properties?: Record<string, Json> }).properties ?? {};
  return Object.keys(properties).map((name) => ({ name, in: 'query', required: false, schema: { type: 'string' } }));
}

function operation(op: AnyOperatorOperation): Json {
  const params = [
    ...[...op.path.matchAll(/:(\w+)/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } })),
    ...(op.query ? queryParameters(op.query) : []),
  ];
  const errors = Object.fromEntries([...errorsOf(op)].map(([status, codes]) => [String(status), errorResponse(codes)]));
  return {
    operationId: op.operationId,
    summary: op.summary,
    ...(params.length > 0 ? { parameters: params } : {}),
    ...(op.body ? { requestBody: { required: op.bodyOptional !== true, content: { 'application/json': { schema: schemaOf(op.body) } } } } : {}),
    responses: { [String(op.status)]: { description: 'Done.', content: { 'application/json': { schema: schemaOf(op.output) } } }, ...errors },
  };
}

/** The document. */
export function buildOperatorOpenApi(operations: readonly AnyOperatorOperation[]): Json {
  const paths: Record<string, Json> = {};
  for (const op of operations) (paths[openApiPath(op.path)] ??= {})[op.method.toLowerCase()] = operation(op);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Operator API',
      version: '1.0.0',
      description: 'The back office of the converter site API, on its own listener (OPERATOR_PORT); never on the public port.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    // The operator listener's address differs per deployment (loopback by default): the one serving this.
    servers: [{ url: '/', description: 'The operator listener that serves this document' }],
    security: [{ operatorToken: [] }],
    paths,
    components: {
      securitySchemes: { operatorToken: { type: 'http', scheme: 'bearer', description: "OPERATOR_TOKEN, or an operator's own token of OPERATOR_TOKENS" } },
      schemas: {
        Error: {
          type: 'object',
          required: ['code', 'message', 'resolution'],
          additionalProperties: false,
          properties: { code: { type: 'string' }, message: { type: 'string' }, resolution: { type: 'string' } },
        },
      },
    },
  };
}
