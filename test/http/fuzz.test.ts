/**
 * Fuzz: random bytes and values thrown at every query parameter and body field of every route in
 * API_ROUTES (and at whole bodies), in process (app.handle), on memory, PGlite and Postgres. Whatever comes
 * in, the answer is never a 5xx, a 4xx is the JSON error object and nothing else, and nothing is logged
 * as an unhandled error. Seeded and reproducible: the seed is printed; FUZZ_SEED=<seed> replays a run
 * and FUZZ_CASES=<n> changes the number of requests per storage.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ALIAS_PREFIX, API_ROUTES, V1_PREFIX } from '../../core/api.ts';
import type { HttpInit } from '../_client.ts';
import { closeTestDatabases } from '../_databases.ts';
import { startInProcessStorageServer } from '../_storage-server.ts';
import { ALL_TARGETS } from '../storage/_targets.ts';

const SEED = Number(process.env['FUZZ_SEED'] ?? Math.floor(Math.random() * 2 ** 32));
const CASES = Number(process.env['FUZZ_CASES'] ?? 120);
console.log(`fuzz seed ${SEED}, ${CASES} requests per storage (replay: FUZZ_SEED=${SEED})`);

/** mulberry32: a small seeded PRNG, uniform in [0, 1). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Random = () => number;
const int = (r: Random, n: number) => Math.floor(r() * n);
const pick = <T>(r: Random, list: readonly T[]): T => list[int(r, list.length)]!;

/** Lengths around the interesting edges: empty, short, at and past the limits. */
const length = (r: Random) => pick(r, [0, 1, 2, 7, 64, 65, 200, 201, 255, 256, 1000, 5001])! * (r() < 0.8 ? 1 : 0) + int(r, 3);

function randomBytes(r: Random): Uint8Array {
  return Uint8Array.from({ length: length(r) }, () => (r() < 0.3 ? pick(r, [0, 1, 0x1f, 0x7f, 0x80, 0xc2, 0xed, 0xff, 0x22, 0x5c]) : int(r, 256)));
}

/** Random bytes as a query value: mostly percent-encoded, some printable bytes (and stray %) raw. */
function queryValue(r: Random): string {
  let text = '';
  for (const byte of randomBytes(r)) {
    const raw = byte > 0x20 && byte < 0x7f && byte !== 0x23 && r() < 0.3;
    text += raw ? String.fromCharCode(byte) : `%${byte.toString(16).padStart(2, '0').toUpperCase()}`;
  }
  return text;
}

/** A string of random UTF-16 code units: controls, lone surrogates, astral pairs, plain text. */
function randomString(r: Random): string {
  let text = '';
  for (let i = length(r); i > 0; i--) {
    const kind = int(r, 5);
    if (kind === 0) text += String.fromCharCode(int(r, 0x20));
    else if (kind === 1) text += String.fromCharCode(0xd800 + int(r, 0x800));
    else if (kind === 2) text += String.fromCodePoint(0x10000 + int(r, 0xfffff));
    else if (kind === 3) text += String.fromCharCode(0x7f + int(r, 0x40));
    else text += String.fromCharCode(0x20 + int(r, 0x5f));
  }
  return text;
}

/** Text every field accepts as characters (no controls, no lone surrogates), with quotes, escapes and astral ones. */
function printable(r: Random): string {
  let text = '';
  for (let i = length(r); i > 0; i--) {
    text += pick(r, [
      () => String.fromCharCode(0x20 + int(r, 0x5f)),
      () => String.fromCodePoint(0xa0 + int(r, 0xd800 - 0xa0)),
      () => String.fromCodePoint(0x10000 + int(r, 0xfffff)),
      () => pick(r, ['"', '\\', "'", '\t', '\n', '\r', '%00', '\\u0000', '\u202e', '\ufeff', '\ufffd']),
    ])();
  }
  return text;
}

function randomJson(r: Random, depth = 0): unknown {
  if (depth === 0 && r() < 0.35) return printable(r);
  switch (int(r, depth > 1 ? 6 : 8)) {
    case 0:
      return randomString(r);
    case 1:
      return pick(r, [0, -1, 1, 5, 6, 2147483647, 2147483648, 1e308, -1e308, 0.5, 1e-7]);
    case 2:
      return pick(r, [true, false, null]);
    case 3:
      return pick(r, ['', ' ', 'standard', 'store', 'review', 'a@b.co', '1', 'cs_sim_x']);
    case 4:
      return int(r, 1e9) - 5e8;
    case 5:
      return String.fromCharCode(int(r, 0x10000));
    case 6:
      return Array.from({ length: int(r, 4) }, () => randomJson(r, depth + 1));
    default:
      return Object.fromEntries(Array.from({ length: int(r, 4) }, () => [randomString(r).slice(0, 8), randomJson(r, depth + 1)]));
  }
}

/** A body each route accepts, so that a fuzzed field is often the only thing wrong (or nothing is). */
const VALID: Record<string, Record<string, unknown>> = {
  submitFeedback: { description: 'Converts fine', type: 'review', email: 'someone@example.com', appVersion: '2.4.1', rating: 5 },
  toggleRoadmapVote: { featureId: 1 },
  createCheckout: { product: 'plus_bundle', channel: 'msi' },
};

/** The fields stored as the client wrote them. */
const FREE_TEXT = ['description', 'appVersion'];

/** A body: a valid one with one or more fields fuzzed, or random bytes, or random bytes spliced into a field. */
function randomBody(r: Random, operationId: string, fields: readonly string[]): Uint8Array | string {
  const shape = int(r, 10);
  if (shape === 0) return randomBytes(r);
  const body: Record<string, unknown> = { ...VALID[operationId] };
  for (const field of fields) if (r() < 0.15) body[field] = randomJson(r);
  const target = fields.length > 0 ? pick(r, fields) : 'x';
  if (shape === 1) {
    const [head, tail] = JSON.stringify({ ...body, [target]: '\u0000SPLICE\u0000' }).split('"\\u0000SPLICE\\u0000"');
    return Buffer.concat([Buffer.from(head ?? ''), Buffer.from(['"'.charCodeAt(0)]), randomBytes(r), Buffer.from(`"${tail ?? ''}`)]);
  }
  if (shape < 5) {
    // Text that is stored as given: odd but acceptable characters must reach every storage intact.
    for (const field of FREE_TEXT) if (field in body) body[field] = printable(r) || 'x';
  } else body[target] = randomJson(r);
  return JSON.stringify(body);
}

/** Everything the fuzzer can aim at, read from the route table so new parameters are covered too. */
const AIMS = API_ROUTES.map((route) => ({
  route,
  query: (route.query ?? []).map((q) => q.name),
  fields: route.body && 'entries' in route.body.schema ? Object.keys((route.body.schema as { entries: object }).entries) : [],
}));

function randomRequest(r: Random): HttpInit & { what: string } {
  const { route, query, fields } = pick(r, AIMS);
  const prefix = route.versioned ? pick(r, [V1_PREFIX, ALIAS_PREFIX]) : '';
  const names = query.length > 0 && r() < 0.9 ? query : ['x', ...query];
  const params = names.filter(() => r() < 0.7).map((name) => `${r() < 0.1 ? queryValue(r) : name}=${queryValue(r)}`);
  if (r() < 0.1 && names.length > 0) params.push(`${pick(r, names)}=${queryValue(r)}`);
  const path = `${prefix}${route.path}${params.length > 0 ? `?${params.join('&')}` : ''}`;
  if (route.method === 'GET') return { what: `GET ${path}`, path };
  const body = randomBody(r, route.operationId, fields);
  const type = r() < 0.9 ? 'application/json' : pick(r, ['text/plain', 'application/json; charset=latin1', 'application/x+json']);
  return { what: `${route.method} ${path} ${Buffer.from(body).toString('base64')}`, method: route.method, path, headers: { 'content-type': type }, body };
}

for (const target of ALL_TARGETS) {
  const test = suite(`fuzz on ${target.name}`);
  test(`${target.name}: ${CASES} random requests, no 5xx, every 4xx a JSON error object (seed ${SEED})`, async () => {
    const server = await startInProcessStorageServer(target, { rateLimit: { name: 'public-api', limit: 1_000_000, windowSeconds: 60 } });
    const random = prng(SEED);
    try {
      for (let i = 0; i < CASES; i++) {
        const { what, ...init } = randomRequest(random);
        const answer = await server.request(init);
        const where = `case ${i} of seed ${SEED}: ${what} answered ${answer.status} ${answer.text.slice(0, 200)}`;
        assert.ok(answer.status < 500, `${where}; logged: ${JSON.stringify(server.logger.lines.slice(-1))}`);
        if (answer.status < 400) continue;
        assert.is(answer.headers['content-type'], 'application/json', where);
        const body = answer.json() as Record<string, unknown>;
        assert.equal(Object.keys(body), ['code', 'message', 'resolution'], where);
        for (const value of Object.values(body)) assert.type(value, 'string', where);
      }
      assert.equal(server.logger.lines.filter((line) => line.level === 'error'), [], 'no unhandled error logged');
    } finally {
      await server.close();
    }
  });
  // Each storage's suite closes the test databases it opened (the next one opens them again).
  test.after(closeTestDatabases);
  test.run();
}
