/**
 * Prometheus metrics for the app, on any runtime: a registry with the text exposition format, and the
 * Observer that feeds it.
 *
 * @module
 */
export { createRegistry, EXPOSITION_TYPE, labelText, type Counter, type Histogram, type Labels, type Registry } from './registry.ts';
export { createMetricsObserver, DURATION_BUCKETS, EVENT_METRICS, UNMATCHED_ROUTE } from './observer.ts';
