/**
 * Checks HTTP answers against the served /openapi.json, so the document can never drift from the behaviour:
 * the status must be documented for the operation, every documented header must be present when required and
 * match its schema, and the body must match the response schema (JSON Schema 2020-12, checked with Ajv).
 *
 * Unknown paths must answer 404 `not_found` and known paths with another method 405 `method_not_allowed`
 * with an Allow header (or 429 `rate_limited` once the quota is used up), with the headers that every
 * documented response requires. HEAD is checked as GET without a body; OPTIONS (CORS preflight) is skipped.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { SIMULATOR_PATH } from '../adapters/simulator/index.ts';
import { WINDOWS_ONLY_PATH } from '../core/operations/windows-only.ts';
import type { HttpResult, TestServer } from './_setup.ts';

type Json = Record<string, unknown>;

/** What a client saw: the HttpResult of test/_setup.ts (header names in lower case). */
export type SeenResponse = Pick<HttpResult, 'status' | 'headers' | 'text'>;

/** Validates responses against one OpenAPI document. */
export interface ResponseValidator {
  /**
   * Checks one response.
   *
   * @param method The request method.
   * @param path The request path, with or without a query string.
   * @param result What the client received.
   * @throws Error naming the request, the status and what does not match.
   */
  validate(method: string, path: string, result: SeenResponse): void;
}

/** Where the document's named schemas are registered with Ajv. */
const COMPONENTS_ID = 'https://openapi.invalid/components.json';
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Points `#/components/schemas/X` at the schemas registered with Ajv. */
function relink(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(relink);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      key === '$ref' && typeof inner === 'string' ? inner.replace('#/components/schemas/', `${COMPONENTS_ID}#/$defs/`) : relink(inner),
    ]),
  );
}

/** A header value as the type its schema names: integers and numbers are parsed, the rest stays text. */
function headerValue(value: string, schema: Json): unknown {
  const numeric = schema['type'] === 'integer' || schema['type'] === 'number';
  return numeric && /^-?[0-9]+(\.[0-9]+)?$/.test(value) ? Number(value) : value;
}

function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
}

/**
 * An Ajv (JSON Schema 2020-12, strict, with formats) holding the document's named schemas.
 *
 * @param schemas The document's `components.schemas`.
 * @returns The Ajv; `ajv.getSchema(componentId(name))` compiles one named schema.
 */
export function componentsAjv(schemas: unknown): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: COMPONENTS_ID, $defs: relink(schemas ?? {}) });
  return ajv;
}

/**
 * The Ajv key of a named schema of the document.
 *
 * @param name The name under components.schemas.
 */
export function componentId(name: string): string {
  return `${COMPONENTS_ID}#/$defs/${name}`;
}

/**
 * Creates a validator.
 *
 * @param document The OpenAPI 3.1 document, as served.
 * @param outsideApi Path prefixes that are not part of the API and are not checked; by default the pages
 *   of the local payment simulator, which stands in for the provider's hosted checkout, and the shipped
 *   Windows-only page.
 * @returns The validator.
 */
export function createResponseValidator(
  document: unknown,
  outsideApi: readonly string[] = [`${SIMULATOR_PATH}/`, WINDOWS_ONLY_PATH],
): ResponseValidator {
  if (!isObject(document) || !isObject(document['paths']) || !isObject(document['components'])) {
    throw new Error('not an OpenAPI document with paths and components');
  }
  const doc = document;
  const paths = document['paths'];
  const ajv = componentsAjv(document['components']['schemas']);
  const compiled = new WeakMap<object, ValidateFunction>();
  const compile = (schema: Json): ValidateFunction => {
    let check = compiled.get(schema);
    if (!check) compiled.set(schema, check = ajv.compile(relink(schema) as Json));
    return check;
  };

  /** Follows a `#/components/...` ref of the document. */
  const resolve = (value: unknown): Json => {
    if (!isObject(value) || typeof value['$ref'] !== 'string') return isObject(value) ? value : {};
    let target: unknown = doc;
    for (const key of value['$ref'].replace(/^#\//, '').split('/')) target = isObject(target) ? target[key] : undefined;
    if (!isObject(target)) throw new Error(`unresolved ref ${value['$ref']} in the document`);
    return target;
  };

  const operations = Object.values(paths).flatMap((item) => isObject(item) ? METHODS.map((m) => item[m]).filter(isObject) : []);
  // The errors of the metered operations (all but the probes, which document no 429): their headers are
  // those of an answer that belongs to no operation. (An update file's 200, 304 and 302 carry none of the
  // rate-limit headers, its errors all of them.)
  const responses = operations
    .map((op) => resolve(op['responses']))
    .filter((documented) => '429' in documented)
    .flatMap((documented) => Object.entries(documented).filter(([status]) => status === 'default' || Number(status) >= 400).map(([, r]) => resolve(r)));
  /** The templated paths (`/updates/{channel}/{file}`): each `{name}` matches one non-empty segment. */
  const templates = Object.keys(paths).filter((path) => path.includes('{')).map((path) => ({
    path,
    regex: new RegExp(`^${path.split('/').map((segment) => /^\{\w+\}$/.test(segment) ? '[^/]+' : segment.replace(/[.*+?^$()|[\]\\]/g, '\\$&')).join('/')}$`),
  }));
  /** The path item of a request path: its own, or the templated one it matches. */
  const pathItem = (path: string): unknown => paths[path] ?? paths[templates.find((template) => template.regex.test(path))?.path ?? ''];
  /** The headers every documented response requires: those of an answer that belongs to no operation. */
  const everyResponse = Object.fromEntries(
    Object.entries(resolve(responses[0]?.['headers'])).filter(([name]) =>
      responses.every((response) => resolve(resolve(response['headers'])[name])['required'] === true)
    ),
  );
  /** A documented 429, for a rate-limited answer on a path or method that no operation documents. */
  const rateLimited = findResponse(operations, '429', resolve);

  const apiError = (code: string, extraHeaders: Json = {}): Json => ({
    headers: { ...everyResponse, ...extraHeaders },
    content: {
      'application/json': {
        schema: {
          allOf: [{ $ref: '#/components/schemas/ApiError' }, { type: 'object', properties: { code: { const: code } } }],
        },
      },
    },
  });

  const check = (where: string, response: Json, result: SeenResponse, head: boolean): void => {
    for (const [name, ref] of Object.entries(resolve(response['headers']))) {
      const header = resolve(ref);
      const value = result.headers[name.toLowerCase()];
      if (value === undefined) {
        if (header['required'] === true) throw new Error(`${where}: required header ${name} is missing`);
        continue;
      }
      const schema = resolve(header['schema']);
      const validate = compile(schema);
      if (!validate(headerValue(value, schema))) {
        const reason = ajv.errorsText(validate.errors, { dataVar: 'value' });
        throw new Error(`${where}: header ${name} is ${JSON.stringify(value)}, but ${reason}`);
      }
    }
    const content = resolve(response['content']);
    const documented = Object.keys(content);
    if (documented.length === 0) {
      if (result.text === '') return;
      throw new Error(`${where}: no body is documented, got ${JSON.stringify(result.text.slice(0, 200))}`);
    }
    const mediaType = mediaTypeOf(result.headers['content-type']);
    const key = documented.find((type) => type.toLowerCase() === mediaType);
    if (key === undefined) {
      const type = JSON.stringify(result.headers['content-type']);
      throw new Error(`${where}: Content-Type ${type} is not one of ${documented.join(', ')}`);
    }
    if (head) return;
    let body: unknown = result.text;
    if (mediaType === 'application/json' || mediaType.endsWith('+json')) {
      try {
        body = JSON.parse(result.text);
      } catch {
        throw new Error(`${where}: the body is not JSON: ${JSON.stringify(result.text.slice(0, 200))}`);
      }
    }
    const validate = compile(resolve(resolve(content[key])['schema']));
    if (!validate(body)) {
      const reason = ajv.errorsText(validate.errors, { dataVar: 'body' });
      throw new Error(`${where}: ${reason}; the body was ${result.text.slice(0, 300)}`);
    }
  };

  return {
    validate(rawMethod, rawPath, result) {
      const method = rawMethod.toUpperCase();
      const path = rawPath.split('?', 1)[0]!.replace(/(.)\/+$/, '$1');
      if (method === 'OPTIONS' || outsideApi.some((prefix) => path.startsWith(prefix))) return;
      const where = `${method} ${rawPath} answered ${result.status}`;
      const head = method === 'HEAD';
      const item = pathItem(path);
      const operation = isObject(item) ? item[head ? 'get' : method.toLowerCase()] : undefined;
      if (!isObject(operation) && result.status === 429 && rateLimited) return check(where, rateLimited, result, head);
      if (!isObject(item)) {
        if (result.status !== 404) throw new Error(`${where}: the path is not documented, so it must answer 404`);
        return check(where, apiError('not_found'), result, head);
      }
      if (!isObject(operation)) {
        const methods = METHODS.filter((m) => isObject(item[m])).map((m) => m.toUpperCase());
        if (result.status !== 405) {
          throw new Error(`${where}: the path documents only ${methods.join(', ')}, so it must answer 405`);
        }
        const allow = (result.headers['allow'] ?? '').split(',').map((m) => m.trim());
        const missing = methods.filter((m) => !allow.includes(m));
        if (missing.length > 0) {
          const allowed = JSON.stringify(result.headers['allow']);
          throw new Error(`${where}: the Allow header ${allowed} lacks ${missing.join(', ')}`);
        }
        return check(where, apiError('method_not_allowed'), result, head);
      }
      const documented = resolve(operation['responses']);
      const status = String(result.status);
      const response = documented[status] ?? documented[`${status[0]}XX`] ?? documented['default'];
      if (response === undefined) {
        const list = Object.keys(documented).join(', ');
        throw new Error(`${where}: status ${result.status} is not documented (documented: ${list})`);
      }
      check(where, resolve(response), result, head);
    },
  };
}

/** The first documented response with this status. */
function findResponse(operations: Json[], status: string, resolve: (value: unknown) => Json): Json | undefined {
  for (const op of operations) {
    const response = resolve(op['responses'])[status];
    if (response !== undefined) return resolve(response);
  }
  return undefined;
}

/** The address the document is fetched from, so that the test's own clients keep their whole quota. */
export const DOCUMENT_CLIENT = '127.0.0.254';

/**
 * Fetches the served /openapi.json over the server's socket.
 *
 * @param server The test server.
 * @returns The parsed document.
 */
export async function fetchOpenApi(server: Pick<TestServer, 'request'>): Promise<unknown> {
  const result = await server.request({ path: '/openapi.json', from: DOCUMENT_CLIENT });
  if (result.status !== 200) throw new Error(`GET /openapi.json answered ${result.status}: ${result.text}`);
  return result.json();
}

/**
 * Wraps `server.request` so that every response is validated before the test sees it.
 *
 * @param server The test server.
 * @param validator A validator of the server's own document.
 * @returns A drop-in replacement for `server.request`.
 */
export function validatedRequest(server: Pick<TestServer, 'request'>, validator: ResponseValidator): TestServer['request'] {
  return async (init) => {
    const result = await server.request(init);
    validator.validate(init.method ?? 'GET', init.path, result);
    return result;
  };
}

/**
 * Wraps a started test server so that every response it gives is validated against its own /openapi.json
 * (fetched from DOCUMENT_CLIENT).
 *
 * @param server The test server, from startTestServer.
 * @returns The same server whose `request` validates, and the validator.
 */
export async function withValidation<S extends Pick<TestServer, 'request'>>(server: S): Promise<S & { validator: ResponseValidator }> {
  const validator = createResponseValidator(await fetchOpenApi(server));
  return { ...server, validator, request: validatedRequest(server, validator) };
}
