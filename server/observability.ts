/**
 * What the standalone server tells an operator besides its log lines: the access log (LOG_REQUESTS) and
 * the Prometheus metrics (METRICS_PORT), both fed by the app's Observer port.
 *
 * @module
 */
import { createMetricsObserver, createRegistry } from '../adapters/prometheus/index.ts';
import type { Observer } from '../core/ports/ports.ts';
import { createAccessLog } from './access-log.ts';
import { createLineBuffer } from './line-buffer.ts';
import type { ObservabilitySettings } from './observability-config.ts';
import { registerProcessMetrics } from './process-metrics.ts';
import { registerUsageMetrics } from '../adapters/prometheus/usage.ts';
import type { UsageTally } from '../core/budgets/usage.ts';

export interface Observability {
  /** The app's observer; undefined when neither the access log nor metrics are on (nothing to pay for). */
  observer: Observer | undefined;
  /** The metrics exposition, when METRICS_PORT is set. */
  renderMetrics: (() => string) | null;
  /** Writes the access-log lines still buffered (at stop). */
  flush(): void;
  /** Gives the metrics the app's usage counts (downloads, update checks), once it exists. */
  watchUsage(usage: Pick<UsageTally, 'totals'> | null): void;
}

/** The runtime this program runs on, by what `process.versions` says. */
export function runtimeOf(): { name: string; version: string } {
  const versions = process.versions as Record<string, string | undefined>;
  if (versions['bun']) return { name: 'bun', version: versions['bun'] };
  if (versions['deno']) return { name: 'deno', version: versions['deno'] };
  return { name: 'node', version: process.versions.node };
}

/**
 * Builds the observers the settings ask for.
 *
 * @param settings LOG_REQUESTS and METRICS_PORT, read from the environment.
 */
export function createObservability(settings: ObservabilitySettings): Observability {
  const lines = createLineBuffer((text) => void process.stdout.write(text));
  const access = settings.logRequests ? createAccessLog(lines) : null;
  let metrics: ReturnType<typeof createMetricsObserver> | null = null;
  let renderMetrics: (() => string) | null = null;
  let usage: Pick<UsageTally, 'totals'> | null = null;
  if (settings.metrics) {
    const registry = createRegistry();
    metrics = createMetricsObserver(registry);
    registerProcessMetrics(registry, runtimeOf());
    registerUsageMetrics(registry, () => usage);
    renderMetrics = () => registry.render();
  }
  let observer: Observer | undefined;
  if (access && metrics) {
    const log = access.answered;
    const measure = metrics.answered;
    observer = {
      answered(request, response, route, seconds) {
        measure(request, response, route, seconds);
        log(request, response, route, seconds);
      },
      count: metrics.count,
    };
  } else {
    observer = metrics ?? access ?? undefined;
  }
  return { observer, renderMetrics, flush: lines.flush, watchUsage: (tally) => void (usage = tally) };
}
