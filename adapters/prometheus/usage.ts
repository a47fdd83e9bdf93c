/**
 * Downloads and update checks as Prometheus counters (core/budgets/usage.ts), read from the app's tally when
 * scraped: `site_api_downloads_total{release,source,platform}` and
 * `site_api_update_checks_total{release,platform}`, and `site_api_installed_version_checks_total{version}`.
 * The labels are bounded: releases are the operator's, sources come from the configured list (else
 * `other`), installed versions are known ones (else `other` or `none`).
 *
 * @module
 */
import type { UsageTally } from '../../core/budgets/usage.ts';
import type { Registry } from './registry.ts';

/** Registers the counters; `usage()` gives the tally once the app exists (nothing before). */
export function registerUsageMetrics(registry: Registry, usage: () => Pick<UsageTally, 'totals'> | null): void {
  registry.gauge(
    'site_api_downloads_total',
    'Installer downloads (GET /download) since start, by release, source and platform.',
    () => usage()?.totals('download') ?? [],
    'counter',
  );
  registry.gauge(
    'site_api_update_checks_total',
    'Update checks (GET /version) since start, by the release served and platform.',
    () => (usage()?.totals('update_check') ?? []).map(([{ release, platform }, count]) => [{ release, platform }, count] as const),
    'counter',
  );
  registry.gauge(
    'site_api_installed_version_checks_total',
    'Update checks (GET /version) since start, by the installed version their User-Agent names (a known version, other, none).',
    () => (usage()?.totals('installed') ?? []).map(([{ release }, count]) => [{ version: release }, count] as const),
    'counter',
  );
}
