/**
 * Builds the OpenAPI 3.1 description from the route table and the valibot schemas.
 *
 * @module
 */
import { toJsonSchema, toJsonSchemaDefs } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { ALIAS_PREFIX, COMMON_ERRORS, V1_PREFIX, type ApiRoute } from '../api.ts';
import { ERROR_CATALOGUE, type ErrorCode } from '../errors.ts';
import { ApiErrorSchema } from '../schemas/responses.ts';
import { RATE_LIMIT_HEADERS, RESPONSE_HEADERS } from './headers.ts';

type Json = Record<string, unknown>;

/** What the document says about the deployment. */
export interface OpenApiOptions {
  /** The public address of the API. */
  serverUrl: string;
  /** Whether the unversioned aliases are marked deprecated. */
  aliasesDeprecated: boolean;
}

const SCHEMA_REF = '#/components/schemas/';

/** A valibot schema as a JSON Schema 2020-12 object with component refs and no $schema key. */
function jsonSchema(schema: v.GenericSchema, definitions: Record<string, v.GenericSchema>): Json {
  const result = toJsonSchema(schema, { target: 'draft-2020-12', definitions }) as Json;
  delete result['$schema'];
  delete result['$defs'];
  return relink(result) as Json;
}

/** Points `#/$defs/X` refs at the OpenAPI components. */
function relink(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(relink);
  if (value === null || typeof value !== 'object') return value;
  const out: Json = {};
  for (const [key, inner] of Object.entries(value)) {
    out[key] = key === '$ref' && typeof inner === 'string' ? inner.replace('#/$defs/', SCHEMA_REF) : relink(inner);
  }
  return out;
}

/** Every error status an operation may answer with, and the codes of each. */
function errorsByStatus(route: ApiRoute): Map<number, ErrorCode[]> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of [...route.errors, ...COMMON_ERRORS]) {
    const status = ERROR_CATALOGUE[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return new Map([...byStatus].sort(([a], [b]) => a - b));
}

function headerRefs(names: readonly string[]): Json {
  return Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));
}

function errorResponse(status: number, codes: ErrorCode[]): Json {
  const headers = status === 429 ? [...RATE_LIMIT_HEADERS, 'Retry-After'] : RATE_LIMIT_HEADERS;
  return {
    description: `Error: ${codes.join(', ')}.`,
    headers: headerRefs(headers),
    content: {
      'application/json': {
        schema: {
          allOf: [{ $ref: `${SCHEMA_REF}ApiError` }, { properties: { code: { enum: codes } } }],
        },
      },
    },
  };
}

function successResponse(route: ApiRoute): Json {
  const success = route.success;
  if ('headers' in success) {
    return { description: success.description, headers: headerRefs([...RATE_LIMIT_HEADERS, ...success.headers]) };
  }
  const schema = 'schemaName' in success ? { $ref: SCHEMA_REF + success.schemaName } : { type: 'object' };
  const mediaType = 'mediaType' in success ? success.mediaType : 'application/json';
  return {
    description: success.description,
    headers: headerRefs(RATE_LIMIT_HEADERS),
    content: { [mediaType]: { schema: mediaType === 'text/plain' ? { type: 'string' } : schema } },
  };
}

function operation(route: ApiRoute, alias: boolean, options: OpenApiOptions, definitions: Record<string, v.GenericSchema>): Json {
  const op: Json = {
    operationId: alias ? `${route.operationId}Unversioned` : route.operationId,
    tags: [alias ? 'Compatibility aliases' : route.tag],
    summary: alias ? `${route.summary} (unversioned alias)` : route.summary,
    description: alias
      ? `Compatibility alias of ${V1_PREFIX}${route.path}, with the same behaviour. Prefer the /api/v1 path.`
      : route.description,
    security: [],
  };
  if (alias && options.aliasesDeprecated) op['deprecated'] = true;
  const parameters = [
    ...(route.query ?? []).map((param) => ({ param, in: 'query' })),
    ...(route.headers ?? []).map((param) => ({ param, in: 'header' })),
  ];
  if (parameters.length > 0) {
    op['parameters'] = parameters.map(({ param, in: place }) => ({
      name: param.name,
      in: place,
      required: param.required,
      schema: jsonSchema(param.schema, definitions),
    }));
  }
  if (route.body) {
    op['requestBody'] = {
      required: route.body.required,
      content: { 'application/json': { schema: { $ref: SCHEMA_REF + route.body.schemaName } } },
    };
  }
  const responses: Json = { [String(route.success.status)]: successResponse(route) };
  for (const [status, codes] of errorsByStatus(route)) responses[String(status)] = errorResponse(status, codes);
  op['responses'] = responses;
  return op;
}

/**
 * Builds the document.
 *
 * @param routes Every public route, discovery documents included.
 * @param options Deployment facts.
 * @returns The OpenAPI 3.1 object.
 */
export function buildOpenApi(routes: readonly ApiRoute[], options: OpenApiOptions): Json {
  const definitions: Record<string, v.GenericSchema> = { ApiError: ApiErrorSchema };
  for (const route of routes) {
    if (route.body) definitions[route.body.schemaName] = route.body.schema;
    if ('schemaName' in route.success) definitions[route.success.schemaName] = route.success.schema;
  }
  const schemas = relink(toJsonSchemaDefs(definitions, { target: 'draft-2020-12' })) as Json;

  const paths: Json = {};
  const add = (path: string, method: string, op: Json) => {
    paths[path] = { ...(paths[path] as Json | undefined), [method.toLowerCase()]: op };
  };
  for (const route of routes) {
    if (!route.versioned) {
      add(route.path, route.method, operation(route, false, options, definitions));
      continue;
    }
    add(V1_PREFIX + route.path, route.method, operation(route, false, options, definitions));
  }
  for (const route of routes) {
    if (route.versioned) add(ALIAS_PREFIX + route.path, route.method, operation(route, true, options, definitions));
  }

  const tags = [...new Set(routes.map((r) => r.tag)), 'Compatibility aliases'];
  return {
    openapi: '3.1.1',
    info: {
      title: 'Spreadsheet converter public website API',
      version: '1.0.0',
      summary: 'Offer, installer redirect, version check, feedback, roadmap votes and checkout status.',
      description: DESCRIPTION,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: options.serverUrl, description: 'This deployment' }],
    security: [],
    tags: tags.map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? name })),
    paths,
    components: { schemas, headers: RESPONSE_HEADERS },
  };
}

const DESCRIPTION = [
  'The public website API of a desktop product that converts legacy spreadsheets (.123, .wk1, .wk3, .wk4, .wks)',
  'to XLSX, PDF, HTML, Markdown, CSV and XLS locally on Windows. It accepts no spreadsheet uploads and is not',
  'a conversion service. No public endpoint requires credentials; the operator-facing notification endpoint',
  'accepts only events signed by the payment provider.',
  '',
  'Every response, errors included, carries the rate-limit headers: 120 requests per client IP per 60 seconds',
  '(fixed window; IPv6 clients are counted by /64). A 429 also carries Retry-After. Every error body is',
  'exactly {code, message, resolution}. Unknown paths answer 404 not_found and known paths with another',
  'method 405 method_not_allowed with an Allow header; both carry the same rate-limit headers.',
  '',
  'Stable operations live under /api/v1; the unversioned /api paths are compatibility aliases. When they are',
  'deprecated, their responses carry Deprecation (RFC 9745), Sunset (RFC 8594) and a successor-version Link.',
].join('\n');

const TAG_DESCRIPTIONS: Record<string, string> = {
  Offer: 'The live product offer.',
  'Desktop app': 'Installer download and update checks.',
  Feedback: 'Feedback and reviews.',
  Roadmap: 'The public roadmap and its per-IP votes.',
  Checkout: 'Hosted checkout sessions, payment status and license keys.',
  Discovery: 'Documents that describe this API.',
  Operator: 'Operator-facing endpoints called by the payment provider, not by the website or the desktop app.',
  'Compatibility aliases': 'Unversioned /api paths kept for existing clients; prefer /api/v1.',
};
