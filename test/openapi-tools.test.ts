// deno-lint-ignore-file no-explicit-any -- the test walks parsed JSON documents of arbitrary shape
/**
 * /openapi.json as third-party tools use it: every `pattern` compiles in ECMAScript with and without the u
 * flag and in Python's `re` (Schemathesis), with no surrogate escapes; the stored-text pattern says exactly
 * what the server checks, code unit by code unit; and the OpenAPI links chain real calls (checkout create
 * -> status, roadmap list -> vote) over a real socket, as a stateful tester follows them.
 */
import { execFileSync } from 'node:child_process';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { NO_CONTROL_CHARACTERS, NOT_BLANK_NO_CONTROL_CHARACTERS } from '../core/schemas/stored-text.ts';
import { startTestServer, type TestServer } from './_setup.ts';

type Json = Record<string, any>;

/** Every `pattern` string anywhere in a JSON value. */
function patternsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(patternsIn);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) => (key === 'pattern' && typeof inner === 'string' ? [inner] : patternsIn(inner)));
}

/** Whether Python is here to ask; the check is skipped (and says so) without it. */
function hasPython(): boolean {
  try {
    execFileSync('python3', ['-c', 'pass'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Resolves an OpenAPI runtime expression `$response.body#/json/pointer` against a parsed body. */
function fromBody(expression: string, body: unknown): unknown {
  const match = /^\$response\.body#(\/.*)$/.exec(expression);
  if (!match) throw new Error(`not a body expression: ${expression}`);
  return match[1]!.split('/').slice(1).reduce<any>((at, token) => at?.[token.replace(/~1/g, '/').replace(/~0/g, '~')], body);
}

/** A link's requestBody with every expression in it resolved. */
function resolveBody(template: unknown, body: unknown): unknown {
  if (typeof template === 'string') return template.startsWith('$response.') ? fromBody(template, body) : template;
  if (typeof template !== 'object' || template === null) return template;
  return Object.fromEntries(Object.entries(template).map(([key, inner]) => [key, resolveBody(inner, body)]));
}

const tools = suite<{ server?: TestServer; document?: Json }>('/openapi.json for third-party tools', {});
tools.before(async (context) => {
  context.server = await startTestServer();
  context.document = (await context.server.request({ path: '/openapi.json' })).json() as Json;
});
tools.after(async (context) => context.server?.close());

tools('every pattern compiles in ECMAScript with and without the u flag, and has no surrogate escape', ({ document }) => {
  const patterns = patternsIn(document);
  assert.ok(patterns.length >= 4, `patterns found: ${patterns.length}`);
  for (const pattern of patterns) {
    new RegExp(pattern);
    new RegExp(pattern, 'u');
    assert.not.match(pattern, /\\u[dD][89a-fA-F]/, pattern);
  }
});

tools("every pattern compiles in Python's re" + (hasPython() ? '' : ' (skipped: no python3 on this machine)'), ({ document }) => {
  if (!hasPython()) return;
  const script = 'import json, re, sys\nfor p in json.load(sys.stdin): re.compile(p)\nprint("ok")';
  const output = execFileSync('python3', ['-c', script], { input: JSON.stringify(patternsIn(document)), encoding: 'utf8' });
  assert.is(output.trim(), 'ok');
});

tools('the stored-text patterns say what the server checks, for every UTF-16 code unit', () => {
  for (let unit = 0; unit <= 0xffff; unit++) {
    if (unit >= 0xd800 && unit <= 0xdfff) continue;
    const char = String.fromCharCode(unit);
    const control = unit <= 0x08 || unit === 0x0b || unit === 0x0c || (unit >= 0x0e && unit <= 0x1f) || (unit >= 0x7f && unit <= 0x9f);
    assert.is(NO_CONTROL_CHARACTERS.test(`a${char}b`), !control, `U+${unit.toString(16)}`);
    assert.is(NOT_BLANK_NO_CONTROL_CHARACTERS.test(` ${char} `), !control && char.trim() !== '', `U+${unit.toString(16)}`);
    assert.is(NOT_BLANK_NO_CONTROL_CHARACTERS.test(`${char}x`), !control, `U+${unit.toString(16)} before a letter`);
  }
});

tools("the link of checkout create gives getCheckoutStatus the new session's id", async ({ server, document }) => {
  const link = document!['paths']['/api/v1/checkout/create']['post']['responses']['200']['links']['GetCheckoutStatus'];
  assert.is(link.operationId, 'getCheckoutStatus');
  const created = await server!.request({ method: 'POST', path: '/api/v1/checkout/create' });
  assert.is(created.status, 200);
  const sessionId = fromBody(link.parameters.session_id, created.json()) as string;
  const status = await server!.request({ path: `/api/v1/checkout/status?session_id=${encodeURIComponent(sessionId)}` });
  assert.is(status.status, 200);
  assert.equal(status.json(), { status: 'pending', licenseKey: null, standardLicenseKey: null, plusLicenseKey: null });
});

tools('the link of the roadmap list gives toggleRoadmapVote a listed feature', async ({ server, document }) => {
  const link = document!['paths']['/api/v1/roadmap']['get']['responses']['200']['links']['ToggleRoadmapVote'];
  assert.is(link.operationId, 'toggleRoadmapVote');
  const listed = await server!.request({ path: '/api/v1/roadmap' });
  const body = resolveBody(link.requestBody, listed.json()) as { featureId: number };
  assert.is(body.featureId, (listed.json() as { features: { id: number }[] }).features[0]!.id);
  const vote = await server!.request({
    method: 'POST',
    path: '/api/v1/roadmap',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  assert.is(vote.status, 200);
  assert.equal(vote.json(), { voted: true, vote_count: 1 });
});

tools('each link names an operation of the document', ({ document }) => {
  const ids = new Set(Object.values(document!['paths'] as Json).flatMap((item: Json) => Object.values(item).map((op: Json) => op['operationId'])));
  let links = 0;
  for (const item of Object.values(document!['paths'] as Json)) {
    for (const op of Object.values(item as Json)) {
      for (const response of Object.values((op as Json)['responses'] as Json)) {
        for (const link of Object.values(((response as Json)['links'] ?? {}) as Json)) {
          links++;
          assert.ok(ids.has((link as Json)['operationId']), (link as Json)['operationId']);
        }
      }
    }
  }
  assert.is(links, 4, 'two links, on /api/v1 and on the /api alias');
});

tools.run();
