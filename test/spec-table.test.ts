/**
 * The spec's own tables, read from the repository's copy spec/public-api.md (not from core/api.ts): every
 * endpoint, method and status listed there is in /openapi.json, and the app answers each of them, in
 * process through app.handle (nothing here needs a socket).
 * The copy is checked against ../shared/spec/public-api.md when that is beside the clone, and that one
 * check is skipped, saying why, when it is not (test/_spec.ts).
 */
import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createMemoryStorage } from '../adapters/memory/index.ts';
import type { HttpInit } from './_client.ts';
import { type InProcessServer, startInProcessServer } from './_in-process.ts';
import { withValidation } from './_openapi.ts';
import { readSpec, SHARED_SPEC, sharedSpecMissing, SPEC_COPY } from './_spec.ts';
import { storageOutage } from './_storage-outage.ts';

const spec = suite('the spec tables (spec/public-api.md) against /openapi.json and live answers');

interface SpecEndpoint {
  method: string;
  path: string;
  success: number;
  errors: number[];
}

/** The rows of the markdown table whose header row starts with `header`. */
function tableRows(text: string, header: string): string[][] {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.startsWith(header));
  if (start < 0) throw new Error(`the spec has no table starting with ${header}`);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(line.split('|').slice(1, -1).map((cell) => cell.trim()));
  }
  return rows;
}

const specText = readSpec();
const numbers = (cell: string) => [...cell.matchAll(/\b[1-5]\d\d\b/g)].map((m) => Number(m[0]));

/** The Endpoints table, plus the unversioned alias of each /api/v1 path ("replace /api/v1 by /api"). */
const ENDPOINTS: SpecEndpoint[] = tableRows(specText, '| Method | Path |').flatMap(([method = '', path = '', , success = '', errors = '']) => {
  const row = { method, path, success: numbers(success)[0]!, errors: numbers(errors) };
  return path.startsWith('/api/v1/') ? [row, { ...row, path: path.replace('/api/v1/', '/api/') }] : [row];
});

/** The spec's error codes with their statuses. */
const ERROR_CODES = tableRows(specText, '| Code | Condition | Status |').map(([code = '', , status = '']) => ({ code, status: Number(status) }));

/** The quota of the Limits table: "<n> requests per client IP per <s> seconds". */
const QUOTA = /(\d+) requests per client IP per (\d+) seconds/.exec(specText);

/**
 * A request that gets each status of an endpoint, by the spec's rules (per versioned path; the alias takes
 * the same). 429 is reached by using up the quota, and 500 by taking the storage down: neither is listed.
 */
const REQUESTS: Record<string, Record<number, (server: InProcessServer) => Promise<HttpInit>>> = {
  'GET /api/v1/pricing': { 200: async () => ({ path: '' }) },
  'GET /api/v1/download': { 302: async () => ({ path: '?force=1' }), 400: async () => ({ path: '?force=2' }) },
  'GET /api/v1/version': { 200: async () => ({ path: '' }) },
  'POST /api/v1/feedback': { 201: async () => json({ description: 'spec' }), 400: async () => json({}) },
  'GET /api/v1/roadmap': { 200: async () => ({ path: '' }) },
  'POST /api/v1/roadmap': { 200: async () => json({ featureId: 1 }), 400: async () => json({ featureId: 0 }), 404: async () => json({ featureId: 9999 }) },
  'POST /api/v1/checkout/create': { 200: async () => ({ path: '' }) },
  'GET /api/v1/checkout/status': {
    200: async (server) => {
      const created = await server.request({ method: 'POST', path: '/api/v1/checkout/create', from: '127.0.13.250' });
      return { path: `?session_id=${(created.json() as { sessionId: string }).sessionId}` };
    },
    400: async () => ({ path: '' }),
  },
  'GET /llms.txt': { 200: async () => ({ path: '' }) },
  'GET /openapi.json': { 200: async () => ({ path: '' }) },
};

function json(body: unknown): HttpInit {
  return { path: '', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}

const RATE_LIMIT_HEADERS = ['ratelimit', 'ratelimit-policy', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'];
let server: InProcessServer;
let client = 0;

spec.before.each(async () => {
  server = await withValidation(await startInProcessServer());
});
spec.after.each(async () => {
  await server.close();
});

/** The /api/v1 path of an endpoint (an alias's path with /api/v1 put back). */
const versionedPath = (endpoint: SpecEndpoint) => endpoint.path.replace(/^\/api\/(?!v1\/)/, '/api/v1/');

/** The request for one status of one endpoint, from a fresh client. */
async function requestFor(endpoint: SpecEndpoint, status: number, from = `127.0.13.${++client}`): Promise<HttpInit> {
  const make = REQUESTS[`${endpoint.method} ${versionedPath(endpoint)}`]?.[status];
  if (!make) throw new Error(`no request for ${status} of ${endpoint.method} ${endpoint.path}: add one to REQUESTS`);
  const init = await make(server);
  return { ...init, method: endpoint.method, path: endpoint.path + init.path, from };
}

/** Sends the request for one status of one endpoint from a fresh client. */
async function answer(endpoint: SpecEndpoint, status: number, from?: string) {
  return server.request(await requestFor(endpoint, status, from));
}

const missing = sharedSpecMissing();
if (missing) {
  spec.skip(`spec/public-api.md is the shared spec (skipped: ${missing})`, () => {});
} else {
  spec('spec/public-api.md is the shared spec, byte for byte (copy ../shared/spec/public-api.md over it when this fails)', () => {
    assert.ok(readFileSync(SPEC_COPY, 'utf8') === readFileSync(SHARED_SPEC, 'utf8'), `${SPEC_COPY} differs from ${SHARED_SPEC}`);
  });
}

spec('the tables parse: 10 endpoints and their 8 aliases, three error codes, the quota', () => {
  assert.is(ENDPOINTS.length, 18);
  assert.equal(ERROR_CODES, [
    { code: 'not_found', status: 404 },
    { code: 'rate_limited', status: 429 },
    { code: 'description_required', status: 400 },
  ]);
  assert.equal(QUOTA?.slice(1), ['120', '60']);
});

spec('/openapi.json has every endpoint and method of the spec, with its success status and every error status, and declares no credentials', async () => {
  const document = (await server.request({ path: '/openapi.json', from: '127.0.13.251' })).json() as {
    security?: unknown;
    paths: Record<string, Record<string, { responses: Record<string, unknown>; tags?: string[]; description?: string; security?: unknown }>>;
    components: { schemas: { ApiError: { properties: { code: { enum: string[] } } } }; securitySchemes?: unknown };
  };
  // Authentication: no security scheme and no credential requirement (an empty list requires none), for
  // the document or any operation.
  const requiresNothing = (security: unknown) => security === undefined || (Array.isArray(security) && security.length === 0);
  assert.ok(requiresNothing(document.security), JSON.stringify(document.security));
  assert.is(document.components.securitySchemes, undefined);
  const secured = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).filter(([, op]) => !requiresNothing(op.security)).map(([method]) => `${method.toUpperCase()} ${path}`)
  );
  assert.equal(secured, []);
  for (const endpoint of ENDPOINTS) {
    const operation = document.paths[endpoint.path]?.[endpoint.method.toLowerCase()];
    assert.ok(operation, `${endpoint.method} ${endpoint.path} is not in /openapi.json`);
    const documented = Object.keys(operation.responses);
    for (const status of [endpoint.success, ...endpoint.errors]) {
      assert.ok(documented.includes(String(status)), `${endpoint.method} ${endpoint.path}: ${status} is not documented (${documented})`);
    }
  }
  // Nothing public beyond the spec but the additions, each marked so in its summary (and in the docs): the
  // other paths are operator-facing (tagged Operator): the provider's notification endpoint with its /api
  // alias, and the load-balancer probes.
  const operator = Object.entries(document.paths)
    .filter(([, item]) => Object.values(item).some((op) => op.tags?.includes('Operator')))
    .flatMap(([path]) => (path.startsWith('/api/v1/') ? [path, path.replace('/api/v1/', '/api/')] : [path]));
  // And the additions, each saying so first in its description (docs mark them "an addition to the spec").
  // An alias is an addition when the path it stands for is one.
  const addition = (path: string, method: string) => {
    const versioned = path.startsWith('/api/') && !path.startsWith('/api/v1/') ? path.replace('/api/', '/api/v1/') : path;
    return document.paths[versioned]?.[method]?.description?.startsWith('An addition to the spec.') === true;
  };
  const additions = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.keys(item).filter((method) => addition(path, method)).map((method) => `${method.toUpperCase()} ${path}`)
  );
  assert.equal(additions, [
    'POST /api/v1/installs',
    'POST /api/v1/licenses/validate',
    'POST /api/v1/licenses/resend',
    'GET /api/v1/changelog',
    'GET /api/v1/changelog.atom',
    'POST /api/v1/unsubscribe',
    'GET /api/v1/unsubscribe',
    'GET /updates/{channel}/{file}',
    'GET /updates/{channel}/targets/{file}',
    'POST /api/installs',
    'POST /api/licenses/validate',
    'POST /api/licenses/resend',
    'GET /api/changelog',
    'GET /api/changelog.atom',
    'POST /api/unsubscribe',
    'GET /api/unsubscribe',
  ]);
  const extra = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => !ENDPOINTS.some((e) => e.path === path && e.method.toLowerCase() === method) && !operator.includes(path) && !addition(path, method))
      .map(([method]) => `${method.toUpperCase()} ${path}`)
  );
  assert.equal(extra, []);
  assert.equal(operator, ['/api/v1/webhooks/gateway', '/api/webhooks/gateway', '/healthz', '/readyz']);
  for (const { code } of ERROR_CODES) assert.ok(document.components.schemas.ApiError.properties.code.enum.includes(code), code);
});

spec('every endpoint answers its success status and each error status the spec lists (but 429 and 500) live, with the rate-limit headers', async () => {
  for (const endpoint of ENDPOINTS) {
    for (const status of [endpoint.success, ...endpoint.errors.filter((s) => s !== 429 && s !== 500)]) {
      const result = await answer(endpoint, status);
      assert.is(result.status, status, `${endpoint.method} ${endpoint.path} for ${status}: ${result.text}`);
      for (const header of RATE_LIMIT_HEADERS) assert.ok(result.headers[header], `${endpoint.method} ${endpoint.path}: no ${header}`);
      assert.is(result.headers['ratelimit-policy'], `"public-api";q=${QUOTA![1]};w=${QUOTA![2]}`);
    }
  }
});

spec('past the quota every endpoint answers 429 rate_limited with Retry-After', async () => {
  const from = '127.0.13.252';
  for (let i = 0; i < Number(QUOTA![1]); i++) await server.request({ path: '/llms.txt', from });
  for (const endpoint of ENDPOINTS) {
    assert.ok(endpoint.errors.includes(429), `${endpoint.method} ${endpoint.path} lists 429`);
    const result = await answer(endpoint, endpoint.success, from);
    assert.is(result.status, 429, `${endpoint.method} ${endpoint.path}`);
    assert.is((result.json() as { code: string }).code, 'rate_limited');
    assert.match(result.headers['retry-after'] ?? '', /^[1-9]\d*$/);
  }
});

/**
 * GET pricing lists 500, but serves the configured offer from memory: with the storage down it has nothing
 * that can fail, so it answers its success.
 */
const SERVED_WITHOUT_STORAGE = ['GET /api/v1/pricing'];

spec('with the storage down, each endpoint whose row lists 500 answers 500 internal_error with the rate-limit headers; the others still answer', async () => {
  const outage = storageOutage(createMemoryStorage());
  // This test's own server, on the storage it takes down: the one made before each test is closed first.
  await server.close();
  server = await withValidation(await startInProcessServer({ storage: outage.storage }));
  // The requests first (the status request needs a session created while the storage is up), then the outage.
  const requests = [];
  for (const endpoint of ENDPOINTS) requests.push({ endpoint, init: await requestFor(endpoint, endpoint.success) });
  outage.down();
  for (const { endpoint, init } of requests) {
    const what = `${endpoint.method} ${endpoint.path}`;
    const fails = endpoint.errors.includes(500) && !SERVED_WITHOUT_STORAGE.includes(`${endpoint.method} ${versionedPath(endpoint)}`);
    const result = await server.request(init);
    assert.is(result.status, fails ? 500 : endpoint.success, `${what}: ${result.text}`);
    assert.is(result.headers['ratelimit-policy'], `"public-api";q=${QUOTA![1]};w=${QUOTA![2]}`, what);
    assert.is(result.headers['ratelimit-remaining'], String(Number(QUOTA![1]) - 1), what);
    if (!fails) continue;
    assert.is(result.headers['content-type'], 'application/json', what);
    assert.equal(result.json(), {
      code: 'internal_error',
      message: 'The server failed to handle the request.',
      resolution: 'Retry later; if the problem persists, contact support.',
    }, what);
  }
});

spec("the spec's error codes are answered with their statuses", async () => {
  const notFound = await server.request({ path: '/api/v1/convert', from: '127.0.13.253' });
  const missing = await server.request({ ...json({ rating: 5 }), method: 'POST', path: '/api/v1/feedback', from: '127.0.13.253' });
  const seen = [notFound, missing].map((r) => ({ code: (r.json() as { code: string }).code, status: r.status }));
  const expected = ERROR_CODES.filter((e) => e.code !== 'rate_limited');
  assert.equal(seen, expected);
});

spec.run();
