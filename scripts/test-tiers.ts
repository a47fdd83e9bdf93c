/**
 * Which tier each test file is in: the one place that decides it (scripts/run-tests.ts reads it; CONTRIBUTING.md
 * says how to place a test).
 *
 * - `unit`: core, the in-process app (`app.handle`) on memory storage, formats, schemas, config parsing and
 *   the conformance kit in process. No child process, no socket (not even to 127.0.0.1), no database, no
 *   browser: the runner refuses them in this tier (scripts/test-report/unit-guard.ts) and runs its files
 *   several to a process.
 * - `storage`: the storage contract and the other tests whose subject is storage, and the app in process
 *   where it must hold on every storage: on memory, PGlite and PostgreSQL (DATABASE_URL, or PGlite served
 *   over the wire protocol on 127.0.0.1).
 * - `e2e`: servers, runtimes (Deno, Bun, workerd), the CLI, packing, browsers, and anything else that opens
 *   a socket or starts a process.
 *
 * The rule: a file's tier is that of the longest entry below that its path (relative to the test folder)
 * starts with; a file no entry names is `e2e`, the slowest tier, so that a new file in a new folder runs
 * with everything it might need. A new file in a listed folder takes its folder's tier: add an entry for
 * the file when it belongs elsewhere. test/scripts/test-tiers.test.ts checks that every entry names a file.
 *
 * @module
 */

import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The tiers, in the order `npm test` runs them. */
export const TIERS = ['unit', 'storage', 'e2e'] as const;
export type Tier = (typeof TIERS)[number];

/**
 * Folders (ending in "/") and files, relative to test/, and their tier. Classified by what each file does
 * (a run that recorded every process, listen, connect and PGlite import), not by its folder's name.
 */
export const TIER_TABLE: Readonly<Record<string, Tier>> = {
  'adapters/': 'unit',
  'conformance/': 'unit',
  'core/': 'unit',
  // The program's commands in process (test/_cli.ts), the operator API answered by an app in process.
  'cli/': 'unit',
  // Reads the docs and the code only.
  'docs/doc-counts.test.ts': 'unit',
  'docs/doc-lists.test.ts': 'unit',
  'docs/app-steps.test.ts': 'unit',
  'docs/update-rule-doc.test.ts': 'unit',
  'docs/update-window-doc.test.ts': 'unit',
  // The doc's commands through the program's entry in process (test/_cli.ts), against an app in process.
  'docs/update-files-setup.test.ts': 'unit',
  // The walk-through of docs/operating.md, sent to app.handle with the test's clock.
  'docs/operating-walkthrough.test.ts': 'unit',
  // The Next.js example's route handler called in process with Requests, as Next calls it.
  'docs/nextjs-client-address.test.ts': 'unit',
  // Ramp plans and their step announcements on PGlite and two instances on one PostgreSQL.
  'core/release-ramp.test.ts': 'storage',
  'core/release-ramp-events.test.ts': 'storage',
  // Opens the Stripe stand-in, a real HTTP server on 127.0.0.1.
  'core/gateway-webhook.test.ts': 'e2e',
  // The operator operations through `handle` on PGlite and PostgreSQL.
  'operator/': 'storage',
  'operator/stats-spans.test.ts': 'unit',
  // The update roots' operations through `handle` on memory storage.
  'operator/update-roots.test.ts': 'unit',
  // Three of these serve an app on a real socket, because answering while storage works is their point.
  'storage/': 'storage',
  'server/': 'e2e',
  'server/event-delivery.test.ts': 'unit',
  // The simulation command in process: the app, a cache model and the installs, on a simulated clock.
  'server/simulate-command.test.ts': 'unit',
  'server/export-format.test.ts': 'unit',
  'server/http-limits.test.ts': 'unit',
  'server/mail-config.test.ts': 'unit',
  'server/operator-tokens-config.test.ts': 'unit',
  'server/mail-retry-command.test.ts': 'unit',
  'server/payment-config.test.ts': 'unit',
  'server/purge-config.test.ts': 'unit',
  'server/update-windows-config.test.ts': 'unit',
  'server/release-watch-config.test.ts': 'unit',
  'server/storage-config.test.ts': 'unit',
  'server/start-warnings.test.ts': 'unit',
  'server/usage-writer.test.ts': 'unit',
  // The program in process (test/_cli.ts), its operator API answered by the app in process.
  'server/roadmap-command.test.ts': 'unit',
  'server/vendor-week-command.test.ts': 'unit',
  'server/webhooks-command.test.ts': 'unit',
  'server/worker-app.test.ts': 'unit',
  // The app, a command or the Worker in process on PGlite and PostgreSQL (a cuttable proxy in front of the
  // database for the outages): storage is what they need, not a socket of their own.
  'edge/worker-usage.test.ts': 'storage',
  'server/license-command.test.ts': 'storage',
  'server/licenses-issued.test.ts': 'storage',
  'server/rate-limit-outage.test.ts': 'storage',
  'server/rate-limit-own-count.test.ts': 'storage',
  'server/readiness-storage.test.ts': 'storage',
  'server/releases-two-instances.test.ts': 'storage',
  // In process through app.handle on memory, PGlite and PostgreSQL (startInProcessStorageServer).
  'http/budgets.test.ts': 'storage',
  'http/control-characters.test.ts': 'storage',
  'http/fuzz.test.ts': 'storage',
  'http/operator-vendor-week.test.ts': 'storage',
  'http/schema-agreement.test.ts': 'storage',
  // In process through app.handle (test/_in-process.ts); the rest of http/ is about the server itself.
  'http/bad-input.test.ts': 'unit',
  'http/checkout-return.test.ts': 'unit',
  'http/checkout-thanks.test.ts': 'unit',
  'http/cors.test.ts': 'unit',
  'http/memory-caps.test.ts': 'unit',
  'http/operator-audit.test.ts': 'unit',
  'http/operator-inbox-page.test.ts': 'unit',
  'http/operator-numbers.test.ts': 'unit',
  'http/operator-orders-page.test.ts': 'unit',
  'http/operator-pages.test.ts': 'unit',
  'http/operator-releases-page.test.ts': 'unit',
  'http/operator-releases-ramp-page.test.ts': 'unit',
  'http/operator-roadmap-sort.test.ts': 'unit',
  'http/operator-roadmap-unmerge-page.test.ts': 'unit',
  'http/operator-roadmap.test.ts': 'unit',
  'http/operator.test.ts': 'unit',
  'http/license-updates.test.ts': 'unit',
  'http/orders.test.ts': 'unit',
  'http/probes.test.ts': 'unit',
  'http/rate-limit.test.ts': 'unit',
  'http/release-halt.test.ts': 'unit',
  'http/releases-rule.property.test.ts': 'unit',
  'http/releases-week.test.ts': 'unit',
  'http/releases.test.ts': 'unit',
  'http/request-id.test.ts': 'unit',
  'http/spec-rows.test.ts': 'unit',
  'http/stats.test.ts': 'unit',
  'http/votes-per-network.test.ts': 'unit',
  'http/windows-only.test.ts': 'unit',
  'scripts/': 'unit',
  // The spec's tables and /llms.txt against the app in process (test/_in-process.ts); openapi.test.ts
  // asks the app in process too, but runs redocly in a child process.
  'spec-table.test.ts': 'unit',
  'llms-txt.test.ts': 'unit',
  // The response validator of test/_openapi.ts, against the app's answers in process.
  'openapi-validator.test.ts': 'unit',
  // Runs the runner on fixture files, each in its own process.
  'scripts/run-tests.test.ts': 'e2e',
  'stripe/': 'e2e',
  'stripe/signature.test.ts': 'unit',
};

/**
 * The tier of a test file and the entry that decided it (null when no entry names it).
 *
 * @param path The file's path relative to the test folder, with "/" separators.
 */
export function tierEntry(path: string): { tier: Tier; entry: string | null } {
  let entry: string | null = null;
  for (const key of Object.keys(TIER_TABLE)) {
    const matches = key.endsWith('/') ? path.startsWith(key) : path === key;
    if (matches && (entry === null || key.length > entry.length)) entry = key;
  }
  return { tier: entry === null ? 'e2e' : TIER_TABLE[entry]!, entry };
}

/**
 * The tier of a test file.
 *
 * @param path The file's path relative to the test folder, with "/" separators.
 */
export function tierOf(path: string): Tier {
  return tierEntry(path).tier;
}

/**
 * Every test file (`*.test.ts`) under a folder, sorted, skipping node_modules.
 *
 * @param dir The folder.
 */
export function findTestFiles(dir: string): string[] {
  return readdirSync(dir)
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : findTestFiles(path);
      return name.endsWith('.test.ts') ? [path] : [];
    })
    .sort();
}
