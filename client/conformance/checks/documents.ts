/** Pricing, version and the two discovery documents. */
import { describe, fail } from '../answer.ts';
import { type Check, V1 } from '../check.ts';
import { expectApiError, expectObject, expectStatus, mediaType } from '../expect.ts';
import { expectShape, PRICING, VERSION } from '../shape.ts';

/**
 * The description's operation for a path of the spec: keyed by the whole path, or by its rest after the
 * path of one of the document's `servers` (e.g. servers [{ url: "/api/v1" }] and paths "/pricing").
 */
function operationOf(document: Record<string, unknown>, method: string, path: string): { security?: unknown } | undefined {
  const paths = (document['paths'] ?? {}) as Record<string, Record<string, { security?: unknown } | undefined> | undefined>;
  const servers = Array.isArray(document['servers']) ? (document['servers'] as { url?: unknown }[]) : [];
  const prefixes = [
    '',
    ...servers.flatMap((server) => {
      try {
        return typeof server.url === 'string' ? [new URL(server.url, 'http://conformance.test').pathname.replace(/\/+$/, '')] : [];
      } catch {
        return [];
      }
    }),
  ];
  for (const prefix of prefixes) {
    if (prefix !== '' && !path.startsWith(`${prefix}/`)) continue;
    const operation = paths[path.slice(prefix.length)]?.[method];
    if (operation) return operation;
  }
  return undefined;
}

/** The operations of the Endpoints table under /api/v1. */
export const OPERATIONS: readonly (readonly [string, string])[] = [
  ['get', '/pricing'],
  ['get', '/download'],
  ['get', '/version'],
  ['post', '/feedback'],
  ['get', '/roadmap'],
  ['post', '/roadmap'],
  ['post', '/checkout/create'],
  ['get', '/checkout/status'],
];

export const documentChecks: readonly Check[] = [
  {
    id: 'pricing',
    clause: 'rules.1',
    also: ['endpoints.get-pricing', 'pricing.fields', 'pricing.currency', 'service.json-bodies'],
    title: 'GET pricing is 200 JSON with the Pricing payload: required fields, their types, currency "USD"',
    requests: 1,
    async run(t) {
      expectShape(expectObject(await t.client().get(`${V1}/pricing`), 200), PRICING);
    },
  },
  {
    id: 'version',
    clause: 'rules.3',
    also: ['endpoints.get-version', 'version.fields', 'version.closed', 'service.json-bodies'],
    title: 'GET version is 200 JSON with exactly {version, downloadUrl (URI)}',
    requests: 1,
    async run(t) {
      expectShape(expectObject(await t.client().get(`${V1}/version`), 200), VERSION);
    },
  },
  {
    id: 'llms-txt',
    clause: 'rules.9',
    also: ['endpoints.get-llms-txt'],
    title: 'GET /llms.txt is 200 text/plain with a summary',
    requests: 1,
    async run(t) {
      const answer = await t.client().get('/llms.txt');
      expectStatus(answer, 200);
      if (mediaType(answer) !== 'text/plain') fail(`expected Content-Type text/plain, got ${JSON.stringify(answer.headers.get('content-type'))}`);
      if (answer.text.trim() === '') fail('expected a summary, got an empty body');
    },
  },
  {
    id: 'openapi-version',
    clause: 'versioning.5',
    also: ['endpoints.get-openapi-json'],
    title: 'GET /openapi.json is 200 JSON: OpenAPI 3.1, interface version 1.0.0',
    requests: 1,
    async run(t) {
      const document = expectObject(await t.client().get('/openapi.json'), 200);
      if (typeof document['openapi'] !== 'string' || !/^3\.1(\.\d+)?$/.test(document['openapi'])) {
        fail(`expected "openapi": "3.1.x", got ${JSON.stringify(document['openapi'])}`);
      }
      const info = document['info'] as Record<string, unknown> | undefined;
      if (info?.['version'] !== '1.0.0') fail(`expected info.version "1.0.0", got ${JSON.stringify(info?.['version'])}`);
    },
  },
  {
    id: 'openapi-operations',
    clause: 'endpoints.get-openapi-json',
    title: '/openapi.json describes every public operation of the Endpoints table',
    requests: 1,
    async run(t) {
      const document = expectObject(await t.client().get('/openapi.json'), 200);
      const missing = OPERATIONS.filter(([method, path]) => !operationOf(document, method, V1 + path)).map(([method, path]) =>
        `${method.toUpperCase()} ${V1}${path}`
      );
      if (missing.length > 0) fail(`expected /openapi.json to describe ${missing.join(', ')}, got no such operation`);
    },
  },
  {
    id: 'openapi-no-credentials',
    clause: 'authentication.no-credentials',
    title: '/openapi.json declares no security requirement on any public operation',
    requests: 1,
    async run(t) {
      const document = expectObject(await t.client().get('/openapi.json'), 200);
      const required = (security: unknown) => Array.isArray(security) && security.some((item) => item && Object.keys(item as object).length > 0);
      if (required(document['security'])) fail(`expected no global security requirement, got ${JSON.stringify(document['security'])}`);
      for (const [method, path] of OPERATIONS) {
        const security = operationOf(document, method, V1 + path)?.security;
        if (required(security)) fail(`expected no security requirement on ${method.toUpperCase()} ${V1}${path}, got ${JSON.stringify(security)}`);
      }
    },
  },
  {
    id: 'discovery-unversioned',
    clause: 'endpoints.discovery-unversioned',
    also: ['errors.not_found'],
    title: 'The discovery documents have no versioned form: /api/v1/llms.txt and /api/v1/openapi.json are 404 not_found',
    requests: 2,
    async run(t) {
      const client = t.client();
      for (const path of [`${V1}/llms.txt`, `${V1}/openapi.json`]) {
        const answer = await client.get(path);
        if (answer.status === 200) fail(`expected no endpoint, got: ${describe(answer)}`);
        expectApiError(answer, 404, 'not_found');
      }
    },
  },
];
