/**
 * docs/architecture.md's recipe for a public endpoint, followed on a throwaway one: a row declared as
 * core/endpoints.ts declares its rows, an operation, and the row bound beside API_ROUTES. From that row
 * alone the router answers it (and its /api alias), /openapi.json and /llms.txt list it, and a client
 * built from the same row has its method. Then the recipe against the code: the table's rows are exactly
 * what the client exports and what PUBLIC_ENDPOINTS lists, and API_ROUTES binds each row in its order.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as v from 'valibot';
import * as client from '../../client/index.ts';
import { createClientFor } from '../../client/index.ts';
import { createFetchHandler } from '../../adapters/fetch/index.ts';
import { API_ROUTES, type ApiRoute, OPERATOR_TAG } from '../../core/api.ts';
import { createAppOf } from '../../core/app.ts';
import type { Endpoint } from '../../core/endpoint.ts';
import * as table from '../../core/endpoints.ts';
import { json } from '../../core/http/http.ts';
import { createMemoryStorage } from '../../adapters/memory/index.ts';
import { createSimulatorGateway } from '../../adapters/simulator/index.ts';
import { exampleContent, fixedVersion, manualClock, memoryLogger } from '../_setup.ts';
import { ROOT } from '../_spawn.ts';

// Step 1 of the recipe: the row, as core/endpoints.ts declares each of its rows.
const PingSchema = v.strictObject({ pong: v.literal(true) });
const getPingEndpoint = {
  operationId: 'getPing',
  method: 'GET',
  path: '/recipe-throwaway',
  versioned: true,
  tag: 'Discovery',
  summary: 'Ping the throwaway endpoint',
  description: 'Answers {"pong":true}; declared by test/core/endpoint-recipe.test.ts only.',
  success: { status: 200, description: 'The pong.', schema: PingSchema, schemaName: 'Ping' },
  errors: [],
} as const satisfies Endpoint;

// Step 2: its operation, as core/operations/<name>.ts exports one.
const ping = () => () => json(200, { pong: true });

// Step 3: the row bound to its operation, as core/api.ts binds each row.
const routes: readonly ApiRoute[] = [...API_ROUTES, { ...getPingEndpoint, create: ping }];

/** An app over the given table, and a fetch into it. */
async function appOver(apiRoutes: readonly ApiRoute[]) {
  const clock = manualClock();
  const storage = createMemoryStorage({ clock });
  const gateway = createSimulatorGateway({ storage, publicBaseUrl: 'http://localhost:8080', clock });
  const app = await createAppOf(apiRoutes, { content: exampleContent(), version: fixedVersion(), gateway, clock, logger: memoryLogger(), storage });
  const handler = createFetchHandler(app);
  const fetch = async (input: string, init: RequestInit) => handler(new Request(input, init), '203.0.113.10');
  const get = async (path: string) => fetch(`http://localhost:8080${path}`, {});
  return { fetch, get };
}

test('the row alone gets the route, its alias, the two documents and the client method', async () => {
  const { fetch, get } = await appOver(routes);
  for (const path of ['/api/v1/recipe-throwaway', '/api/recipe-throwaway']) {
    const answer = await get(path);
    assert.is(answer.status, 200, path);
    assert.is(await answer.text(), '{"pong":true}', path);
  }

  const document = (await (await get('/openapi.json')).json()) as {
    paths: Record<string, { get?: { operationId: string } }>;
    components: { schemas: Record<string, unknown> };
  };
  assert.is(document.paths['/api/v1/recipe-throwaway']?.get?.operationId, 'getPing');
  assert.ok(document.paths['/api/recipe-throwaway']?.get, 'the alias is documented');
  assert.equal(document.components.schemas['Ping'], {
    type: 'object',
    properties: { pong: { const: true } },
    required: ['pong'],
    additionalProperties: false,
  });

  const llms = await (await get('/llms.txt')).text();
  assert.ok(llms.includes('\n- [GET /api/v1/recipe-throwaway](http://localhost:8080/api/v1/recipe-throwaway): Ping the throwaway endpoint.\n'), llms);

  const api = createClientFor([getPingEndpoint], { baseUrl: 'http://localhost:8080', fetch, validate: true });
  const pong: { pong: true } = await api.getPing();
  assert.equal(pong, { pong: true });
  assert.is((await api.withMeta.getPing()).status, 200);
});

test('without the binding the app has no such route: the row alone is not served', async () => {
  const { get } = await appOver(API_ROUTES);
  assert.is((await get('/api/v1/recipe-throwaway')).status, 404);
});

test('core/endpoints.ts exports its rows, each named <operationId>Endpoint and listed once in PUBLIC_ENDPOINTS', () => {
  const { PUBLIC_ENDPOINTS, ...rows } = table;
  assert.equal(
    Object.keys(rows).sort(),
    PUBLIC_ENDPOINTS.map((row) => `${row.operationId}Endpoint`).sort(),
    'every export is a row, and every row is listed',
  );
  for (const row of PUBLIC_ENDPOINTS) assert.is(rows[`${row.operationId}Endpoint` as keyof typeof rows], row, row.operationId);
  assert.is(new Set(PUBLIC_ENDPOINTS).size, PUBLIC_ENDPOINTS.length, 'no row is listed twice');
});

test('the client exports the whole table, the same objects', () => {
  for (const [name, row] of Object.entries(table)) assert.is((client as Record<string, unknown>)[name], row, name);
  assert.equal(
    Object.keys(client.createClient({ baseUrl: 'http://localhost:8080' })).filter((name) => name !== 'withMeta' && !name.endsWith('Link')),
    table.PUBLIC_ENDPOINTS.map((row) => row.operationId),
  );
});

test('API_ROUTES binds every row but the two discovery documents (operations/discovery.ts binds those), in the order of the table', () => {
  const bound = API_ROUTES.filter((route) => route.tag !== OPERATOR_TAG).map((route) => route.operationId);
  const discovery: readonly Endpoint[] = [table.getLlmsTxtEndpoint, table.getOpenApiEndpoint];
  const rows = table.PUBLIC_ENDPOINTS.filter((row) => !discovery.includes(row)).map((row) => row.operationId);
  assert.equal(bound, rows);
  for (const route of API_ROUTES) {
    const row = table.PUBLIC_ENDPOINTS.find((candidate) => candidate.operationId === route.operationId);
    if (row) {
      assert.equal(
        { ...route, create: undefined, readsOnly: undefined },
        { ...row, create: undefined, readsOnly: undefined },
        `${route.operationId} is its row`,
      );
    }
  }
});

test('architecture.md names the three files of the recipe, and they exist', () => {
  const doc = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
  const recipe = doc.slice(doc.indexOf('## Adding an operation'));
  for (const file of ['core/endpoints.ts', 'core/api.ts', 'core/operations/<name>.ts']) {
    assert.ok(recipe.includes(`\`${file}\``), `the recipe names ${file}`);
  }
  assert.ok(recipe.includes('test/core/endpoint-recipe.test.ts'), 'the recipe points at this test');
  for (const file of ['core/endpoints.ts', 'core/api.ts']) readFileSync(join(ROOT, file));
});

test.run();
