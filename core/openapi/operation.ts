/**
 * One OpenAPI operation from one route of the route table: parameters, request body and every response
 * with its headers and, for errors, the codes it may carry.
 *
 * @module
 */
import { V1_PREFIX } from '../endpoint.ts';
import { type ApiRoute, COMMON_ERRORS } from '../api-route.ts';
import { ERROR_CATALOGUE, type ErrorCode } from '../http/errors.ts';
import { DEPRECATION_HEADERS, EVERY_RESPONSE_HEADERS, FILE_CACHE_CONTROL, FILE_HEADERS, PUBLIC_CACHE_CONTROL, UNMETERED_HEADERS } from './headers.ts';
import { linksOf } from './links.ts';

type Json = Record<string, unknown>;

/** Where a named schema lives in the document. */
export const SCHEMA_REF = '#/components/schemas/';

/** How one operation is documented. */
export interface OperationOptions {
  /** Whether this is the unversioned /api alias of the route. */
  alias: boolean;
  /** Whether the aliases are deprecated (then their responses carry the notices). */
  aliasesDeprecated: boolean;
  /** The text of the deprecation notice of an alias, when deprecated. */
  deprecationNote: string;
  /** Turns the valibot schema of a query or header parameter into a JSON Schema. */
  parameterSchema: (schema: NonNullable<ApiRoute['query']>[number]['schema']) => Json;
}

/** Every error status an operation may answer with, and the codes of each, by status. */
function errorsByStatus(route: ApiRoute): [number, ErrorCode[]][] {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of route.metered === false ? route.errors : [...route.errors, ...COMMON_ERRORS]) {
    const status = ERROR_CATALOGUE[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return [...byStatus].sort(([a], [b]) => a - b);
}

/** Which Cache-Control a response carries: no-store, the changelog's public one, or an update file's. */
type CacheControl = 'no-store' | 'public' | 'file';

/** Whether a route is a file for caches (the update files): its 2xx and 3xx carry nothing per client, its errors are metered. */
const isFile = (route: ApiRoute) => route.metered === 'errors';

/**
 * The header references of a response; `cache`: its Cache-Control is no-store, the cacheable answer's
 * (`Cache-Control-Public`) or an update file's (`Cache-Control-File`).
 */
function headerRefs(names: readonly string[], cache: CacheControl = 'no-store'): Json {
  const replaced = cache === 'public' ? PUBLIC_CACHE_CONTROL : cache === 'file' ? FILE_CACHE_CONTROL : 'Cache-Control';
  const component = (name: string) => (name === 'Cache-Control' ? replaced : name);
  return Object.fromEntries([...new Set(names)].map((name) => [name, { $ref: `#/components/headers/${component(name)}` }]));
}

function errorResponse(codes: readonly ErrorCode[], headers: readonly string[]): Json {
  const lines = codes.map((code) => `- \`${code}\`: ${ERROR_CATALOGUE[code].when}`);
  return {
    description: `An error with one of these codes:\n\n${lines.join('\n')}`,
    headers: headerRefs(headers),
    content: {
      'application/json': {
        schema: {
          allOf: [{ $ref: `${SCHEMA_REF}ApiError` }, { type: 'object', properties: { code: { enum: codes } } }],
        },
      },
    },
  };
}

function successResponse(route: ApiRoute, headers: readonly string[]): Json {
  const success = route.success;
  if ('headers' in success) {
    return { description: success.description, headers: headerRefs([...headers, ...success.headers], isFile(route) ? 'file' : 'no-store') };
  }
  if (success.status === 204) return { description: success.description, headers: headerRefs(headers, 'no-store') };
  const [mediaType, schema] = 'schemaName' in success
    ? [success.mediaType ?? 'application/json', { $ref: SCHEMA_REF + success.schemaName }]
    : [success.mediaType, success.mediaType === 'application/json' ? { type: 'object' } : { type: 'string' }];
  const extra = success.extraHeaders ?? [];
  const refs = headerRefs([...headers, ...extra], isFile(route) ? 'file' : route.cacheable !== undefined ? 'public' : 'no-store');
  return { description: success.description, headers: refs, content: { [mediaType]: { schema } } };
}

/** The 304 of a cacheable route or an update file: no body, the validators and the public Cache-Control. */
function notModifiedResponse(route: ApiRoute, headers: readonly string[]): Json {
  const extra = 'extraHeaders' in route.success ? (route.success.extraHeaders ?? []) : [];
  const file = isFile(route);
  return {
    description: file
      ? 'Not Modified: the If-None-Match of the request names the ETag of the file this name serves now.'
      : 'Not Modified: the If-None-Match (or, without it, If-Modified-Since) of the request matches the current answer.',
    headers: headerRefs([...headers, ...extra], file ? 'file' : 'public'),
  };
}

/**
 * The responses of a route. The 500 answer is documented as `default` on an operation whose success is
 * not 2xx (the download redirect): "any other status is an unexpected fault" is what it means there, and
 * it is how OpenAPI tools recognise an operation without a 2xx answer.
 */
function responses(route: ApiRoute, common: readonly string[]): Json {
  // An update file's 200, 304 and 302 carry nothing per client; its errors carry what every error does.
  const answered = isFile(route) ? FILE_HEADERS : common;
  const success = successResponse(route, answered);
  const links = linksOf(route.operationId);
  if (links) success['links'] = links;
  const result: Json = { [String(route.success.status)]: success };
  if (route.cacheable || (isFile(route) && route.success.status === 200)) result['304'] = notModifiedResponse(route, answered);
  const no2xx = route.success.status >= 300;
  for (const [status, codes] of errorsByStatus(route)) {
    const key = status === 500 && no2xx ? 'default' : String(status);
    result[key] = errorResponse(codes, status === 429 ? [...common, 'Retry-After'] : common);
  }
  return result;
}

/**
 * Documents one route at one path.
 *
 * @param route The route.
 * @param options Whether it is the alias, and how schemas are converted.
 * @returns The OpenAPI Operation Object.
 */
export function buildOperation(route: ApiRoute, options: OperationOptions): Json {
  const { alias } = options;
  const deprecated = alias && options.aliasesDeprecated;
  const successor = V1_PREFIX + route.path;
  const op: Json = {
    operationId: alias ? `${route.operationId}Unversioned` : route.operationId,
    tags: [alias ? 'Compatibility aliases' : route.tag],
    summary: alias ? `${route.summary} (unversioned alias)` : route.summary,
    description: alias
      ? `Compatibility alias of ${successor}, with the same behaviour. Prefer the /api/v1 path.` +
        (deprecated ? ` ${options.deprecationNote}` : '')
      : route.description,
    security: [],
  };
  if (deprecated) op['deprecated'] = true;
  const parameters = [
    ...(route.pathParameters ?? []).map((param) => ({ param, in: 'path' })),
    ...(route.query ?? []).map((param) => ({ param, in: 'query' })),
    ...(route.headers ?? []).map((param) => ({ param, in: 'header' })),
  ];
  if (parameters.length > 0) {
    op['parameters'] = parameters.map(({ param, in: place }) => ({
      name: param.name,
      in: place,
      required: param.required,
      schema: options.parameterSchema(param.schema),
    }));
  }
  if (route.body) {
    op['requestBody'] = {
      required: route.body.required,
      content: { 'application/json': { schema: { $ref: SCHEMA_REF + route.body.schemaName } } },
    };
  }
  const base = route.metered === false ? UNMETERED_HEADERS : EVERY_RESPONSE_HEADERS;
  const common = deprecated ? [...base, ...DEPRECATION_HEADERS] : base;
  op['responses'] = responses(route, common);
  return op;
}
