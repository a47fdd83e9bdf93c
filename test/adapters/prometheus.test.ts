/**
 * The Prometheus registry and observer: the exact text exposition (HELP, TYPE, cumulative buckets,
 * +Inf, _sum, _count, escaped label values) and the labels of the HTTP histogram.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createMetricsObserver, createRegistry } from '../../adapters/prometheus/index.ts';
import type { CoreRequest, CoreResponse } from '../../core/http/http.ts';

test('a counter, a gauge and a histogram are written in the text format, in registration order', () => {
  const registry = createRegistry();
  const counter = registry.counter('jobs_total', 'Jobs done.');
  registry.gauge('temperature_celsius', 'Heat.', () => [[{ room: 'a "quoted"\\ name\nx' }, 21.5]]);
  const histogram = registry.histogram('wait_seconds', 'Waits.', [0.1, 1]);
  counter.inc();
  counter.inc(2);
  const series = histogram.series({ kind: 'x' });
  for (const value of [0.05, 0.1, 0.5, 3]) series.observe(value);
  assert.is(
    registry.render(),
    [
      '# HELP jobs_total Jobs done.',
      '# TYPE jobs_total counter',
      'jobs_total 3',
      '',
      '# HELP temperature_celsius Heat.',
      '# TYPE temperature_celsius gauge',
      'temperature_celsius{room="a \\"quoted\\"\\\\ name\\nx"} 21.5',
      '',
      '# HELP wait_seconds Waits.',
      '# TYPE wait_seconds histogram',
      'wait_seconds_bucket{kind="x",le="0.1"} 2',
      'wait_seconds_bucket{kind="x",le="1"} 3',
      'wait_seconds_bucket{kind="x",le="+Inf"} 4',
      'wait_seconds_sum{kind="x"} 3.65',
      'wait_seconds_count{kind="x"} 4',
      '',
    ].join('\n'),
  );
});

test('a metric name registered twice is refused', () => {
  const registry = createRegistry();
  registry.counter('a_total', 'A.');
  assert.throws(() => registry.counter('a_total', 'A again.'), /registered twice/);
});

test('the HTTP histogram labels method, route template and status; odd methods are _OTHER, no route is "unmatched"', () => {
  const registry = createRegistry();
  const observer = createMetricsObserver(registry);
  const request = (method: string, path: string): CoreRequest => ({ method, path, headers: {}, clientIp: '192.0.2.1' });
  const response = (status: number): CoreResponse => ({ status, headers: {}, body: null });
  observer.answered(request('GET', '/api/v1/pricing'), response(200), '/api/v1/pricing', 0.0004);
  observer.answered(request('GET', '/api/v1/pricing/'), response(200), '/api/v1/pricing', 0.003);
  observer.answered(request('BREW', '/coffee'), response(404), null, 0.0001);
  observer.count('feedback_stored', 1);
  observer.count('license_issued', 2);
  const text = registry.render();
  assert.match(text, 'http_server_request_duration_seconds_bucket{method="GET",route="/api/v1/pricing",status_code="200",le="0.001"} 1\n');
  assert.match(text, 'http_server_request_duration_seconds_bucket{method="GET",route="/api/v1/pricing",status_code="200",le="0.005"} 2\n');
  assert.match(text, 'http_server_request_duration_seconds_count{method="GET",route="/api/v1/pricing",status_code="200"} 2\n');
  assert.match(text, 'http_server_request_duration_seconds_count{method="_OTHER",route="unmatched",status_code="404"} 1\n');
  assert.not.match(text, '/coffee');
  assert.match(text, '\nsite_api_feedback_stored_total 1\n');
  assert.match(text, '\nsite_api_licenses_issued_total 2\n');
  assert.match(text, '\nsite_api_storage_errors_total 0\n');
  assert.match(text, '\nsite_api_unhandled_errors_total 0\n');
});

test.run();
