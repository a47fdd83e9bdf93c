/**
 * Prometheus metrics for the app, on any runtime: a registry with the text exposition format, and the
 * Observer that feeds it.
 *
 * @module
 */
export { type Counter, createRegistry, EXPOSITION_TYPE, type Histogram, type Labels, labelText, type Registry } from './registry.ts';
export { createMetricsObserver, DURATION_BUCKETS, EVENT_METRICS, UNMATCHED_ROUTE } from './observer.ts';
