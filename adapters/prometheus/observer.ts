/**
 * The app's Observer as Prometheus metrics: the HTTP request histogram (OpenTelemetry's
 * http.server.request.duration, in seconds, by method, route template and status code) and a counter per
 * app event.
 *
 * @module
 */
import type { CoreRequest, CoreResponse } from '../../core/http/http.ts';
import type { AppEvent, Observer } from '../../core/ports/ports.ts';
import type { HistogramSeries, Registry } from './registry.ts';

/**
 * Bucket bounds in seconds: OpenTelemetry's advice for http.server.request.duration (5 ms to 10 s), with
 * 1 ms and 2.5 ms added below, where most answers of this API fall.
 */
export const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

/** Methods kept as label values; any other is `_OTHER` (OpenTelemetry's rule), so a client cannot add series. */
const KNOWN_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'CONNECT', 'TRACE', '_OTHER'];
const OTHER = KNOWN_METHODS.length - 1;

/** The route label of a request no route matched (a 404, or an unparseable request). */
export const UNMATCHED_ROUTE = 'unmatched';

/** Each event's counter: name and help. */
export const EVENT_METRICS: Record<AppEvent, readonly [string, string]> = {
  rate_limited: ['site_api_rate_limited_requests_total', 'Requests answered 429 rate_limited.'],
  storage_error: [
    'site_api_storage_errors_total',
    'Storage faults caught and worked around: rate-limit counter failures, download events not recorded, failed readiness pings.',
  ],
  unhandled: [
    'site_api_unhandled_errors_total',
    'Requests answered 500 internal_error because something threw unexpectedly (a bug, or a storage call that failed); each is logged with its request id.',
  ],
  checkout_created: ['site_api_checkout_sessions_created_total', 'Checkout sessions created.'],
  license_issued: ['site_api_licenses_issued_total', 'License keys issued (a Plus bundle issues two).'],
  feedback_stored: ['site_api_feedback_stored_total', 'Feedback submissions stored.'],
  vote_toggled: ['site_api_roadmap_vote_toggles_total', 'Roadmap votes toggled (cast or withdrawn).'],
  client_address_missing: [
    'site_api_requests_without_client_address_total',
    "Requests the host gave no client address: served as one shared client, or answered 500 client_address_missing with clientAddress: 'required'.",
  ],
  gateway_event_ignored: [
    'site_api_gateway_events_ignored_total',
    'Signed payment provider events acknowledged and ignored: a test event (livemode false) on a live key, or a live one on a test key.',
  ],
  cache_purge_failed: [
    'site_api_cache_purge_failures_total',
    'Attempts to purge the update files from the caches that failed (each is retried; caches keep the old files until their max-age meanwhile).',
  ],
  cache_purge_given_up: [
    'site_api_cache_purges_given_up_total',
    'Purges of the update files given up after every retry failed: caches keep the old files until their max-age (or their own TTL).',
  ],
};

/**
 * Registers the app's metrics and returns the observer that feeds them.
 *
 * @param registry Where the metrics are registered.
 * @returns The observer to give createApp.
 */
export function createMetricsObserver(registry: Registry): Required<Observer> {
  const histogram = registry.histogram(
    'http_server_request_duration_seconds',
    'Duration of HTTP server requests, from the request taken by the app to its answer.',
    DURATION_BUCKETS,
  );
  // route -> method index -> status -> series: two map lookups and no string built per request.
  const byRoute = new Map<string | null, Map<number, HistogramSeries>[]>();
  const resolve = (route: string | null, method: number, status: number): HistogramSeries => {
    let byMethod = byRoute.get(route);
    if (byMethod === undefined) byRoute.set(route, byMethod = KNOWN_METHODS.map(() => new Map()));
    const byStatus = byMethod[method]!;
    let target = byStatus.get(status);
    if (target === undefined) {
      target = histogram.series({ method: KNOWN_METHODS[method]!, route: route ?? UNMATCHED_ROUTE, status_code: String(status) });
      byStatus.set(status, target);
    }
    return target;
  };
  const counters = Object.fromEntries(
    Object.entries(EVENT_METRICS).map(([event, [name, help]]) => [event, registry.counter(name, help)]),
  ) as Record<AppEvent, ReturnType<Registry['counter']>>;

  return {
    answered(request: CoreRequest, response: CoreResponse, route: string | null, seconds: number) {
      const method = request.method === 'GET' ? 0 : KNOWN_METHODS.indexOf(request.method);
      resolve(route, method < 0 ? OTHER : method, response.status).observe(seconds);
    },
    count(event, times) {
      counters[event].inc(times);
    },
  };
}
