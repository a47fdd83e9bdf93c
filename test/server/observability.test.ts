/**
 * Probes, request ids, logs and metrics of the real program on Node, Deno and Bun (npm start,
 * start:deno, start:bun): access-log lines read from the child's stdout, metrics scraped from the
 * METRICS_PORT listener and checked against the requests made, and a SIGTERM that turns /readyz to 503
 * while the instance still serves (DRAIN_SECONDS).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { logLines } from '../_log-lines.ts';
import { type HttpResult, sendRequest } from '../_client.ts';
import { freePort, listeningLine, ROOT, runToExit, type Spawned, spawnServer } from '../_spawn.ts';

const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
const RUNTIMES = { node: 'start', deno: 'start:deno', bun: 'start:bun' } as const;
const BASE_ENV = { PORT: '0', HOST: '127.0.0.1', STORAGE: 'memory', CONFIG_FILE: join(ROOT, 'example/config.json') };
const ENV = { ...BASE_ENV, LOG_REQUESTS: 'true', METRICS_PORT: '0', DRAIN_SECONDS: '2' };

const listening = (server: Spawned) => listeningLine(server.stdout());

/** One series' sample of a scrape, e.g. `site_api_feedback_stored_total` or `x{a="b"}`; undefined when absent. */
function sample(scrape: string, series: string): number | undefined {
  const line = scrape.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

const duration = (method: string, route: string, status: number) =>
  `http_server_request_duration_seconds_count{method="${method}",route="${route}",status_code="${status}"}`;

async function exercise(runtime: string, server: Spawned) {
  const info = listening(server)!;
  const url = String(info['url']);
  const metricsUrl = String(info['metrics']);
  assert.match(metricsUrl, /^http:\/\/127\.0\.0\.1:\d+$/, `${runtime}: the metrics listener is on loopback`);
  const send = (init: Parameters<typeof sendRequest>[1]) => sendRequest(url, init);
  const json = (body: unknown) => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  const answers: HttpResult[] = [
    await send({ path: '/api/v1/pricing', headers: { 'x-request-id': `trace-${runtime}` } }),
    await send({ path: '/api/v1/checkout/status?session_id=cs_secret_capability' }),
    await send({ method: 'POST', path: '/api/v1/feedback', ...json({ description: 'metrics please' }) }),
    await send({ method: 'POST', path: '/api/v1/roadmap', ...json({ featureId: 1 }) }),
    await send({ method: 'POST', path: '/api/v1/checkout/create' }),
    await send({ path: '/healthz' }),
    await send({ path: '/nope?token=hidden' }),
    await send({ path: '/api/v1/version', headers: { 'user-agent': 'LegacySheetConverter/2.4.1 (Windows NT 10.0)' } }),
    await send({ path: '/api/v1/download?source=made-up', headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64)' } }),
  ];
  assert.equal(answers.map((a) => a.status), [200, 400, 201, 200, 200, 200, 404, 200, 302], runtime);
  assert.is(answers[0]!.headers['x-request-id'], `trace-${runtime}`);
  assert.is((await send({ path: '/metrics' })).status, 404, `${runtime}: no metrics on the public port`);

  const scrape = await sendRequest(metricsUrl, { path: '/metrics' });
  assert.is(scrape.status, 200);
  assert.is(scrape.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8');
  const text = scrape.text;
  assert.is(sample(text, duration('GET', '/api/v1/pricing', 200)), 1, `${runtime}\n${text}`);
  assert.is(sample(text, duration('GET', '/api/v1/checkout/status', 400)), 1);
  assert.is(sample(text, duration('POST', '/api/v1/feedback', 201)), 1);
  assert.is(sample(text, duration('POST', '/api/v1/roadmap', 200)), 1);
  assert.is(sample(text, duration('POST', '/api/v1/checkout/create', 200)), 1);
  assert.is(sample(text, duration('GET', '/healthz', 200)), 1);
  // /nope and /metrics on the public port: unmatched, never a raw path.
  assert.is(sample(text, duration('GET', 'unmatched', 404)), 2);
  assert.not.match(text, 'route="/nope"');
  assert.is(
    sample(text, 'http_server_request_duration_seconds_bucket{method="GET",route="/api/v1/pricing",status_code="200",le="+Inf"}'),
    1,
  );
  assert.is(sample(text, 'site_api_feedback_stored_total'), 1);
  assert.is(sample(text, 'site_api_update_checks_total{release="2.4.1",platform="windows"}'), 1, text);
  assert.is(sample(text, 'site_api_installed_version_checks_total{version="2.4.1"}'), 1, text);
  assert.is(sample(text, 'site_api_downloads_total{release="2.4.1",source="other",platform="other"}'), 1);
  assert.is(sample(text, 'site_api_roadmap_vote_toggles_total'), 1);
  assert.is(sample(text, 'site_api_checkout_sessions_created_total'), 1);
  assert.is(sample(text, 'site_api_licenses_issued_total'), 0);
  assert.is(sample(text, 'site_api_rate_limited_requests_total'), 0);
  assert.is(sample(text, 'site_api_storage_errors_total'), 0);
  assert.ok((sample(text, 'process_cpu_seconds_total') ?? 0) > 0, 'process CPU time');
  assert.ok((sample(text, 'process_resident_memory_bytes') ?? 0) > 1e6, 'resident memory');
  assert.match(text, `site_api_runtime_info{runtime="${runtime}",version="`);
  assert.match(text, '# TYPE http_server_request_duration_seconds histogram\n');
  return answers;
}

for (const [runtime, script] of Object.entries(RUNTIMES)) {
  const command = scripts[script]!;
  const test = suite(`${runtime} program: probes, request ids, access log, metrics`);
  const start = (env: Record<string, string>) => spawnServer(command, env, listeningLine);

  test(`${runtime}: every request is one access-log line and one histogram count; SIGTERM turns /readyz 503 first`, async () => {
    const server = await start(ENV);
    let answers: HttpResult[];
    try {
      answers = await exercise(runtime, server);
      const url = String(listening(server)!['url']);
      assert.is((await sendRequest(url, { path: '/readyz' })).status, 200);
      const stopping = new Promise<void>((resolve) => {
        server.child.stdout!.on('data', (d: Buffer) => d.toString().includes('stopping') && resolve());
      });
      server.child.kill('SIGTERM');
      await stopping;
      const draining = await sendRequest(url, { path: '/readyz' });
      assert.is(draining.status, 503, `${runtime}: ${draining.text}`);
      assert.is((draining.json() as { code: string }).code, 'shutting_down');
      assert.is((await sendRequest(url, { path: '/api/v1/version' })).status, 200, 'still serving while draining');
      assert.is(await server.exited, 0, server.output());
    } finally {
      await server.stop();
    }
    const access = logLines(server.stdout()).filter((l) => l.message === 'request');
    // The nine requests, /metrics on the public port, and the three made around the stop.
    assert.is(access.length, 13, server.stdout());
    assert.equal(
      access.slice(0, 7).map((l) => [l['method'], l['route'], l['path'], l['status']]),
      [
        ['GET', '/api/v1/pricing', '/api/v1/pricing', 200],
        ['GET', '/api/v1/checkout/status', '/api/v1/checkout/status', 400],
        ['POST', '/api/v1/feedback', '/api/v1/feedback', 201],
        ['POST', '/api/v1/roadmap', '/api/v1/roadmap', 200],
        ['POST', '/api/v1/checkout/create', '/api/v1/checkout/create', 200],
        ['GET', '/healthz', '/healthz', 200],
        ['GET', null, '/nope', 404],
      ],
    );
    access.slice(0, 7).forEach((line, i) => {
      assert.is(line['requestId'], answers[i]!.headers['x-request-id']);
      assert.is(line['bytes'], Buffer.byteLength(answers[i]!.text));
      assert.is(line['level'], 'info');
      assert.is(line['clientIp'], '127.0.0.1');
      assert.ok(typeof line['durationMs'] === 'number' && line['durationMs'] >= 0);
      assert.ok(!Number.isNaN(Date.parse(String(line['time']))));
    });
    assert.not.match(server.stdout() + server.stderr(), 'cs_secret_capability', 'the query is never logged');
    assert.not.match(server.stdout(), 'token=hidden');
  });

  test.run();
}

const config = suite('observability settings');

config('LOG_LEVEL, LOG_REQUESTS, METRICS_PORT and DRAIN_SECONDS with a bad value stop the start with exit 78', async () => {
  for (
    const [env, expected] of [
      [{ LOG_LEVEL: 'verbose' }, 'configuration error: LOG_LEVEL="verbose" is not one of debug, info, warn, error'],
      [{ LOG_REQUESTS: 'yes' }, 'configuration error: LOG_REQUESTS="yes" is not one of true, false'],
      [{ METRICS_PORT: '99999' }, 'configuration error: METRICS_PORT must be a port number from 0 to 65535, not "99999"'],
      [{ DRAIN_SECONDS: '1.5' }, 'configuration error: DRAIN_SECONDS must be whole seconds from 0 to 300, not "1.5"'],
    ] as const
  ) {
    const { code, stderr } = await runToExit(scripts['start']!, { ...BASE_ENV, ...env });
    assert.is(code, 78, stderr);
    assert.equal(logLines(stderr).map((l) => l.message), [expected]);
  }
});

config('LOG_LEVEL=debug keeps the info lines; LOG_LEVEL=warn drops them and keeps the warnings', async () => {
  const debug = await spawnServer(scripts['start']!, { ...BASE_ENV, LOG_LEVEL: 'debug' }, listeningLine);
  try {
    assert.ok(logLines(debug.stdout()).some((l) => l.message === 'listening' && l['logLevel'] === 'debug'));
  } finally {
    await debug.stop();
  }
  const port = await freePort();
  // The last warning is logged once the port is bound ('listening', an info line, is not printed).
  const lastWarning = 'the license signing key was generated for this run only';
  const quiet = await spawnServer(
    scripts['start']!,
    { ...BASE_ENV, PORT: String(port), LOG_LEVEL: 'warn', LOG_REQUESTS: 'true' },
    (o) => o.includes(lastWarning),
  );
  try {
    assert.is((await sendRequest(`http://127.0.0.1:${port}`, { path: '/api/v1/pricing' })).status, 200);
  } finally {
    assert.is(await quiet.stop(), 0);
  }
  // The access log has its own switch: LOG_REQUESTS=true writes it whatever LOG_LEVEL says.
  assert.equal(logLines(quiet.stdout()).map((l) => [l.level, l.message]), [['info', 'request']]);
  assert.ok(logLines(quiet.stderr()).every((l) => l.level === 'warn'));
  assert.is(logLines(quiet.stderr()).length, 4);
});

config.run();
