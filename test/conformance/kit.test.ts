/**
 * The conformance kit against the reference app: every check passes, with and without distinct client
 * addresses; with one address the kit waits for the quota on the app's own clock, never skipping a
 * check it could run.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { type ConformanceReport, runConformance, simulatorPayment } from '../../client/conformance/index.ts';
import { CLIENT_HEADER, referenceApp } from './_reference.ts';

const DEPRECATION = { deprecatedAt: Date.UTC(2027, 0, 1), sunsetAt: Date.UTC(2027, 6, 1) };

const failures = (report: ConformanceReport) => report.checks.filter((check) => check.status === 'fail').map((check) => `${check.id}: ${check.message}`);
const skips = (report: ConformanceReport) => report.checks.filter((check) => check.status === 'skip').map((check) => check.id);

test('every check passes on the reference app with client addresses and the simulator payment, the strict ones too; only the deprecation check skips', async () => {
  const { fetch } = await referenceApp();
  const report = await runConformance({ fetch, clientAddressHeader: CLIENT_HEADER, payCheckout: simulatorPayment, strict: true });
  assert.equal(failures(report), []);
  assert.equal(skips(report), ['alias-deprecation']);
  assert.is(report.passed + report.skipped, report.checks.length);
});

test('without strict, the strict checks are listed as skipped and say why and how to run them', async () => {
  const { fetch } = await referenceApp();
  const report = await runConformance({ fetch, clientAddressHeader: CLIENT_HEADER, payCheckout: simulatorPayment });
  assert.equal(failures(report), []);
  assert.equal(skips(report), ['feedback-description-required-code', 'checkout-paid-license-key', 'alias-deprecation', 'no-uploads-refused']);
  assert.is(
    report.checks.find((check) => check.id === 'no-uploads-refused')!.message,
    "strict, off by default: the endpoint's row lists no 400, so a server that ignores the file and creates a session also accepts no upload; give strict: true (--strict) to run it",
  );
});

test('an unknown session_id is an error: the reference app answers 400, and a 404 not_found passes too', async () => {
  const { fetch } = await referenceApp();
  const only = ['rules.8.unknown-session'];
  const ours = await runConformance({ fetch, only });
  assert.equal(ours.checks.map((check) => [check.id, check.status]), [['checkout-status-unknown-session', 'pass']]);
  const notFound: typeof fetch = async (request) => {
    const response = await fetch(request);
    if (response.status !== 400 || !new URL(request.url).pathname.endsWith('/checkout/status')) return response;
    return new Response(JSON.stringify({ code: 'not_found', message: 'No such checkout session.', resolution: 'Create one.' }), {
      status: 404,
      headers: response.headers,
    });
  };
  assert.is((await runConformance({ fetch: notFound, only })).passed, 1);
});

test('with deprecated aliases the deprecation check passes too', async () => {
  const { fetch } = await referenceApp({ aliasDeprecation: DEPRECATION });
  const report = await runConformance({
    fetch,
    clientAddressHeader: CLIENT_HEADER,
    payCheckout: simulatorPayment,
    only: ['versioning.4', 'endpoints.aliases'],
  });
  assert.equal(failures(report), []);
  assert.equal(skips(report), []);
});

test('from one address and no payment hook: the per-client and paid checks skip and say why, the others pass', async () => {
  const { fetch } = await referenceApp();
  const report = await runConformance({ fetch });
  assert.equal(failures(report), []);
  assert.equal(skips(report), [
    'feedback-description-required-code',
    'roadmap-vote-per-address',
    'checkout-paid',
    'checkout-paid-license-key',
    'alias-deprecation',
    'no-uploads-refused',
    'quota-per-window',
    'quota-per-client',
  ]);
  assert.match(report.checks.find((check) => check.id === 'quota-per-client')!.message, 'give clientAddressHeader (--client-address-header)');
  assert.match(report.checks.find((check) => check.id === 'checkout-paid')!.message, 'give a payment hook');
});

test('from one address whose quota is partly used, the kit waits for the window on the app clock and passes', async () => {
  const { fetch, clock } = await referenceApp();
  for (let i = 0; i < 100; i++) await fetch(new Request('http://conformance.test/api/v1/version'));
  const waits: number[] = [];
  const lines: string[] = [];
  const sleep = async (ms: number) => {
    waits.push(ms);
    clock.advance(ms);
  };
  const report = await runConformance({ fetch, sleep, log: (line) => lines.push(line) });
  assert.equal(failures(report), []);
  assert.equal(waits, [61_000]);
  assert.is(
    lines[0],
    '60 checks (7 skipped here, 53 run), about 232 requests from one client address at 120 per 60 s: up to 122 s waiting for the quota (less when the address starts with a full quota)',
  );
  assert.match(lines[1]!, /^it opens up to 9 checkout sessions from this address and leaves them unpaid/);
  assert.is(lines[2], 'waiting 61 s for the rate-limit window to reset');
  assert.is(report.checks.length, 60, 'the report lists as many checks as announced');
});

test('a broken RateLimit-Policy fails the checks that see it under its own clause, limits.RateLimit-Policy', async () => {
  const { fetch } = await referenceApp();
  const broken: typeof fetch = async (request) => {
    const response = await fetch(request);
    const headers = new Headers(response.headers);
    headers.set('ratelimit-policy', '"public-api";q=100;w=60');
    return new Response(response.body, { status: response.status, headers });
  };
  const report = await runConformance({ fetch: broken, clientAddressHeader: CLIENT_HEADER, only: ['limits', 'endpoints.aliases'] });
  const failed = report.checks.filter((check) => check.status === 'fail');
  assert.ok(['rate-limit-headers', 'alias-pricing', 'quota-enforced'].every((id) => failed.some((check) => check.id === id)), failed.map((c) => c.id).join());
  for (const check of failed) {
    assert.is(check.clause, 'limits.RateLimit-Policy', check.id);
    assert.match(check.message, 'expected RateLimit-Policy "public-api";q=120;w=60, got "\\"public-api\\";q=100;w=60"');
  }
});

test('a description that names /api/v1 as its server and its paths without it describes the operations too', async () => {
  const { fetch } = await referenceApp();
  const relative: typeof fetch = async (request) => {
    const response = await fetch(request);
    if (new URL(request.url).pathname !== '/openapi.json') return response;
    const document = (await response.json()) as { paths: Record<string, unknown> };
    const paths = Object.fromEntries(
      Object.entries(document.paths).filter(([path]) => path.startsWith('/api/v1/')).map(([path, item]) => [path.slice('/api/v1'.length), item]),
    );
    return new Response(JSON.stringify({ ...document, servers: [{ url: 'https://api.example.com/api/v1' }], paths }), { headers: response.headers });
  };
  const report = await runConformance({ fetch: relative, only: ['endpoints.get-openapi-json', 'authentication.no-credentials'] });
  assert.equal(report.checks.map((check) => [check.id, check.status]), [['openapi-version', 'pass'], ['openapi-operations', 'pass'], [
    'openapi-no-credentials',
    'pass',
  ]]);
});

test('with a client address header the target does not trust, the kit says so before the checks fail', async () => {
  const { fetch } = await referenceApp();
  const lines: string[] = [];
  const report = await runConformance({ fetch, clientAddressHeader: 'x-client-ip', only: ['rules.3'], log: (line) => lines.push(line) });
  assert.is(
    lines[1],
    'two fresh addresses in x-client-ip share one quota (RateLimit-Remaining 119, then 118): the target seems not to trust the header, so the per-client checks will fail',
  );
  assert.is(report.failed, 0);
  const trusted: string[] = [];
  await runConformance({ fetch, clientAddressHeader: CLIENT_HEADER, only: ['rules.3'], log: (line) => trusted.push(line) });
  assert.is(trusted.length, 1);
});

test('a target that refuses every connection fails each check with what happened, and never passes', async () => {
  const report = await runConformance({ fetch: async () => Promise.reject(new TypeError('fetch failed')), only: ['rules.1'] });
  assert.equal(report.checks.map((check) => [check.id, check.status, check.message]), [[
    'pricing',
    'fail',
    'the check could not talk to the target: fetch failed',
  ]]);
});

test('options without a target are refused', async () => {
  const refused = await runConformance({}).catch((error: unknown) => error);
  assert.instance(refused, TypeError);
  assert.is((refused as TypeError).message, 'runConformance needs { baseUrl } or { fetch }');
});

test.run();
