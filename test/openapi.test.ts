/**
 * GET /openapi.json: the served document is valid OpenAPI 3.1 (official schema), lints clean with Redocly's
 * recommended rules, and documents every route, schema, error code and response header.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ALIAS_PREFIX, API_ROUTES, V1_PREFIX } from '../core/api.ts';
import { ERROR_CATALOGUE } from '../core/http/errors.ts';
import { componentId, componentsAjv, fetchOpenApi } from './_openapi.ts';
import { redoclyLint } from './_redocly.ts';
import { startInProcessServer } from './_in-process.ts';

/** The parts of the document these tests read. */
interface ResponseObject {
  headers: Record<string, unknown>;
  content?: Record<string, { schema?: { allOf?: [unknown, { properties?: { code?: { enum?: string[] } } }] } }>;
}
interface OperationObject {
  deprecated?: boolean;
  description: string;
  responses: Record<string, ResponseObject>;
}
interface Document {
  openapi: string;
  info: { version: string; description: string };
  servers: unknown;
  paths: Record<string, Record<string, OperationObject>>;
  components: {
    schemas: Record<string, object> & { ApiError: { properties: { code: { enum: string[]; description: string } } } };
    headers: Record<string, { required?: boolean }>;
  };
}

const DEPRECATION = { deprecatedAt: Date.UTC(2026, 0, 1), sunsetAt: Date.UTC(2027, 0, 1) };
const RATE_LIMIT = ['RateLimit', 'RateLimit-Policy', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];
const PROBES = ['/healthz', '/readyz'];
const UPDATE_FILES = ['/updates/{channel}/{file}', '/updates/{channel}/targets/{file}'];

/** The document served by a fresh server with these options, fetched over its socket. */
async function served(overrides: Parameters<typeof startInProcessServer>[0] = {}): Promise<Document> {
  const server = await startInProcessServer(overrides);
  try {
    const response = await server.request({ path: '/openapi.json' });
    assert.is(response.status, 200);
    assert.is(response.headers['content-type'], 'application/json');
    assert.equal(await fetchOpenApi(server), response.json());
    return response.json() as Document;
  } finally {
    await server.close();
  }
}

/** Every operation of the document with its path and method. */
function operations(document: Document): { path: string; method: string; op: OperationObject }[] {
  return Object.entries(document.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op })));
}

for (
  const [name, overrides] of [
    ['default', {}],
    ['aliases deprecated', { aliasDeprecation: DEPRECATION }],
  ] as const
) {
  test(`${name}: the served document validates against the official OpenAPI 3.1 schema`, async () => {
    const validator = new Validator();
    const result = await validator.validate({ ...(await served(overrides)) });
    assert.equal(result.errors, undefined);
    assert.ok(result.valid);
    assert.is(validator.version, '3.1');
  });

  test(`${name}: redocly lint with the recommended rules reports no errors and no warnings`, async () => {
    const report = await redoclyLint(await served(overrides));
    assert.equal(report.problems, []);
    assert.equal(report.totals, { errors: 0, warnings: 0, ignored: 0 });
  });
}

test('every named schema is valid JSON Schema 2020-12 (the official OpenAPI schema does not check them)', async () => {
  const document = await served();
  const ajv = componentsAjv(document.components.schemas);
  for (const name of Object.keys(document.components.schemas)) assert.ok(ajv.getSchema(componentId(name)), name);
});

test('the document is OpenAPI 3.1, interface version 1.0.0, and lists exactly the routes of core/api.ts', async () => {
  const document = await served();
  assert.ok(document.openapi.startsWith('3.1.'));
  assert.is(document.info.version, '1.0.0');
  const expected = [
    ...API_ROUTES.map((route) => `${route.method} ${V1_PREFIX}${route.path}`),
    ...API_ROUTES.map((route) => `${route.method} ${ALIAS_PREFIX}${route.path}`),
    'GET /updates/{channel}/{file}',
    'GET /updates/{channel}/targets/{file}',
    'GET /healthz',
    'GET /readyz',
    'GET /llms.txt',
    'GET /openapi.json',
  ].sort();
  assert.equal(operations(document).map(({ path, method }) => `${method.toUpperCase()} ${path}`).sort(), expected);
});

test('every error code of the catalogue is documented with its status', async () => {
  const document = await served();
  const codes = Object.keys(ERROR_CATALOGUE);
  const errorCode = document.components.schemas.ApiError.properties.code;
  assert.equal(errorCode.enum, codes);
  for (const code of codes) {
    const status = ERROR_CATALOGUE[code as keyof typeof ERROR_CATALOGUE].status;
    assert.ok(errorCode.description.includes(`- \`${code}\` (${status}): `), code);
  }
  const perOperation = new Set<string>();
  for (const { op } of operations(document)) {
    for (const [status, response] of Object.entries(op.responses)) {
      for (const code of response.content?.['application/json']?.schema?.allOf?.[1].properties?.code?.enum ?? []) {
        const documented = ERROR_CATALOGUE[code as keyof typeof ERROR_CATALOGUE].status;
        assert.is(status === 'default' ? 500 : Number(status), documented, `${code} under ${status}`);
        perOperation.add(code);
      }
    }
  }
  // The answers that belong to no operation are described in info.description and in ApiError.code.
  const unattached = codes.filter((code) => !perOperation.has(code));
  // not_found is the update files' own too (an unknown channel, version or target), besides any unlisted path's.
  assert.equal(unattached, ['malformed_request', 'method_not_allowed', 'request_timeout', 'expectation_failed', 'headers_too_large']);
  for (const code of [...unattached, 'not_found']) assert.match(document.info.description, `\`${code}\``);
  assert.match(document.info.description, '**404 `not_found`** for any path not listed');
  assert.match(document.info.description, '**405 `method_not_allowed`** for a listed path');
});

test('every response documents the five rate-limit headers and X-Request-Id, and every 429 Retry-After', async () => {
  const document = await served();
  for (const { path, method, op } of operations(document)) {
    if (PROBES.includes(path)) continue;
    assert.ok('429' in op.responses, `${method} ${path} documents its 429`);
    for (const [status, response] of Object.entries(op.responses)) {
      // The update files' answers that are not errors carry nothing per client (the test below).
      if (UPDATE_FILES.includes(path) && Number(status) < 400) continue;
      const headers = Object.keys(response.headers);
      for (const header of [...RATE_LIMIT, 'X-Request-Id']) assert.ok(headers.includes(header), `${method} ${path} ${status} ${header}`);
      assert.is(headers.includes('Retry-After'), status === '429', `${method} ${path} ${status}`);
    }
  }
  for (const header of [...RATE_LIMIT, 'X-Request-Id']) assert.is(document.components.headers[header]?.required, true);
});

test('the probes are operator-facing, outside the quota: no rate-limit headers, no 429', async () => {
  const document = await served();
  for (const path of PROBES) {
    const op = document.paths[path]!['get']!;
    assert.equal((op as unknown as { tags: string[] }).tags, ['Operator']);
    assert.equal(Object.keys(op.responses), path === '/readyz' ? ['200', '503'] : ['200']);
    for (const response of Object.values(op.responses)) {
      assert.equal(Object.keys(response.headers), ['Cache-Control', 'X-Content-Type-Options', 'X-Request-Id']);
    }
    assert.match(op.description, 'no rate-limit headers');
  }
  assert.match(document.info.description, 'The operator probes GET /healthz and GET /readyz are the one exception');
});

test('the update files are additions outside the quota but for their errors: no rate-limit headers on 200, 304 and 302, metered 400 and 404', async () => {
  const document = await served();
  const [file, target] = UPDATE_FILES.map((path) =>
    document.paths[path]!['get']! as OperationObject & { tags: string[]; parameters: { name: string; in: string; schema: { pattern: string } }[] }
  );
  for (const op of [file!, target!]) {
    assert.equal(op.tags, ['Update files']);
    assert.ok(op.description.startsWith('An addition to the spec.'));
    assert.match(op.description, 'no /api alias');
    assert.equal(op.parameters.filter((p) => p.in === 'path').map((p) => [p.name, p.schema.pattern.slice(0, 18)]), [['channel', '^[a-z0-9-]{1,32}$'], [
      'file',
      op === file ? '^(?:timestamp\\.jso' : '^[0-9a-f]{64}\\.[A-',
    ]]);
    for (const [status, response] of Object.entries(op.responses)) {
      const headers = Object.keys(response.headers);
      if (Number(status) < 400) {
        assert.equal(headers.filter((h) => RATE_LIMIT.includes(h)), [], status);
        assert.equal((response.headers['Cache-Control'] as { $ref: string }).$ref, '#/components/headers/Cache-Control-File', status);
      } else {
        for (const header of [...RATE_LIMIT, 'X-Request-Id']) assert.ok(headers.includes(header), `${status} ${header}`);
      }
    }
  }
  assert.equal(Object.keys(file!.responses), ['200', '304', '400', '404', '429', '500']);
  assert.equal(Object.keys(target!.responses), ['302', '400', '404', '429', 'default']);
  assert.equal(file!.parameters.find((p) => p.in === 'header')?.name, 'If-None-Match');
  assert.ok(Object.keys(document.paths).every((path) => !path.startsWith('/api/updates') && !path.startsWith('/api/v1/updates')), 'no /api alias');
  assert.match(document.info.description, 'The update files under /updates/{channel}/');
});

test('the checkout status documents the license key format a person types', async () => {
  const document = await served();
  const status = document.components.schemas['CheckoutStatus'] as { properties: Record<string, { description?: string }> };
  assert.is(
    status.properties['licenseKey']?.description,
    "The key of the purchased product; null until paid, and while the order's licenses are revoked (a refund or a dispute). Ed25519-signed, verified offline: 24 groups of 5 Crockford base32 characters " +
      '(e.g. 202GK-N4ZFF-...-FN488, 143 characters; case, dashes and spaces do not matter when typed), or key/... for a key issued ' +
      'before that format. Keys of the payment simulator start with S and are never a license.',
  );
});

test('deprecated aliases are marked deprecated and document Deprecation, Sunset and Link', async () => {
  const document = await served({ aliasDeprecation: DEPRECATION });
  for (const { path, method, op } of operations(document)) {
    const alias = path.startsWith(`${ALIAS_PREFIX}/`) && !path.startsWith(`${V1_PREFIX}/`);
    assert.is(op.deprecated === true, alias, `${method} ${path}`);
    for (const response of Object.values(op.responses)) {
      for (const header of ['Deprecation', 'Sunset', 'Link']) {
        assert.is(header in response.headers, alias, `${method} ${path} ${header}`);
      }
    }
  }
  assert.match(document.paths['/api/pricing']?.['get']?.description ?? '', 'stops answering after 2027-01-01');
});

test('without a deprecation no operation is deprecated and the notices are not documented', async () => {
  const document = await served();
  assert.ok(operations(document).every(({ op }) => op.deprecated === undefined));
  assert.not.ok('Deprecation' in document.components.headers);
});

test('the server is the configured public address, or "/" for a loopback development address', async () => {
  assert.equal((await served()).servers, [{ url: '/', description: 'The host that serves this document' }]);
  const configured = await served({ publicBaseUrl: 'https://api.sheet-converter.test' });
  assert.equal(configured.servers, [{ url: 'https://api.sheet-converter.test', description: 'This deployment' }]);
});

test.run();
