/**
 * The process metrics, under prom-client's names, from what Node, Deno and Bun all give through
 * `process` (CPU time, memory) and Linux's /proc (open file descriptors).
 *
 * @module
 */
import { readdirSync } from 'node:fs';
import type { Registry } from '../adapters/prometheus/index.ts';

const NO_LABELS = {};

/** Open file descriptors, on Linux; null elsewhere (or without permission to read /proc). */
function openFds(): number | null {
  try {
    return readdirSync('/proc/self/fd').length;
  } catch {
    return null;
  }
}

/**
 * Registers the process metrics.
 *
 * @param registry Where they are registered.
 * @param runtime The runtime's name and version, for `site_api_runtime_info`.
 */
export function registerProcessMetrics(registry: Registry, runtime: { name: string; version: string }): void {
  const startSeconds = Math.round(Date.now() / 1000 - process.uptime());
  const cpu = () => process.cpuUsage();
  registry.gauge('process_cpu_user_seconds_total', 'Total user CPU time spent in seconds.', () => [[NO_LABELS, cpu().user / 1e6]], 'counter');
  registry.gauge('process_cpu_system_seconds_total', 'Total system CPU time spent in seconds.', () => [[NO_LABELS, cpu().system / 1e6]], 'counter');
  registry.gauge('process_cpu_seconds_total', 'Total user and system CPU time spent in seconds.', () => {
    const { user, system } = cpu();
    return [[NO_LABELS, (user + system) / 1e6]];
  }, 'counter');
  registry.gauge('process_start_time_seconds', 'Start time of the process since unix epoch in seconds.', () => [[NO_LABELS, startSeconds]]);
  registry.gauge('process_resident_memory_bytes', 'Resident memory size in bytes.', () => [[NO_LABELS, process.memoryUsage().rss]]);
  registry.gauge('process_open_fds', 'Number of open file descriptors.', () => {
    const fds = openFds();
    return fds === null ? [] : [[NO_LABELS, fds]];
  });
  registry.gauge(
    'nodejs_heap_size_total_bytes',
    'Process heap size from the JavaScript engine in bytes.',
    () => [[NO_LABELS, process.memoryUsage().heapTotal]],
  );
  registry.gauge(
    'nodejs_heap_size_used_bytes',
    'Process heap size used from the JavaScript engine in bytes.',
    () => [[NO_LABELS, process.memoryUsage().heapUsed]],
  );
  registry.gauge('site_api_runtime_info', 'The runtime serving the API (always 1).', () => [[{ runtime: runtime.name, version: runtime.version }, 1]]);
}
