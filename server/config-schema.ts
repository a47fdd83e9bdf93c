/**
 * The config file's schema and what it sets, for the standalone server (config.ts) and the Worker
 * (worker-app.ts) alike: one set of rules, so a file one of them refuses is refused by both. No node:*
 * here: the Worker bundles it.
 *
 * @module
 */
import * as v from 'valibot';
import type { AppOptions } from '../core/app-context.ts';
import type { Budgets } from '../core/budgets/budgets.ts';
import type { AliasDeprecation } from '../core/http/deprecation.ts';
import { type SiteContent, siteContentObject } from '../core/schemas/content.ts';
import { DEFAULT_HALT_RULE, type HaltRule } from '../core/releases/halt-rule.ts';
import { CHANNEL_NAME, channelLine } from '../core/releases/channels.ts';
import { ConfigError } from './config-error.ts';
import { CheckoutReturnSchema, StripeFileSchema } from './payment-config.ts';
import { MailFileSchema } from './mail-config.ts';
import { PurgeFileSchema } from './purge-config.ts';
import { saleWindowsOf, SkusFileSchema } from './sku-config.ts';

const IsoDate = v.pipe(v.string(), v.isoTimestamp('must be an ISO 8601 timestamp such as 2027-01-01T00:00:00Z'));

export const ConfigFileSchema = v.strictObject({
  $comment: v.optional(v.string()),
  /** Marks the shipped example, so the startup log can say so. */
  exampleContent: v.optional(v.boolean(), false),
  publicBaseUrl: v.optional(v.pipe(v.string(), v.url('must be an absolute URL'))),
  /** Where the docs/ folder is published, linked from /llms.txt. */
  docsUrl: v.optional(v.pipe(v.string(), v.url('must be an absolute URL'))),
  /** The product's version file, relative to the config file; the standalone server requires it, a Worker reads PRODUCT_VERSION. */
  versionFile: v.optional(v.pipe(v.string(), v.minLength(1))),
  ...siteContentObject.entries,
  corsOrigins: v.optional(
    v.array(
      v.pipe(
        v.string(),
        v.regex(/^(\*|https?:\/\/[^/\s]+)$/, 'must be "*" or an origin such as https://www.example.com'),
      ),
    ),
    [],
  ),
  aliasDeprecation: v.optional(v.nullable(v.strictObject({ deprecatedAt: IsoDate, sunsetAt: IsoDate })), null),
  bodyLimitBytes: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1024), v.maxValue(1024 * 1024)), 16384),
  checkoutTtlMinutes: v.optional(v.pipe(v.number(), v.integer(), v.minValue(5), v.maxValue(7 * 24 * 60)), 1440),
  openCheckoutsPerClient: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1000)), 10),
  /** What each SKU sells besides its price: the update window of its keys (server/sku-config.ts, docs/licensing.md). */
  skus: v.optional(SkusFileSchema),
  /** How long a valid answer of POST /api/v1/licenses/validate lets the desktop app run offline (docs/licensing.md). */
  licenseLeaseDays: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(366)), 14),
  /** Storage budgets (core/budgets/budgets.ts, docs/deploy.md "Storage budgets"). */
  feedbackBytesPerClientPerDay: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1024), v.maxValue(2 ** 40)), 512 * 1024),
  feedbackBytesPerDay: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1024), v.maxValue(2 ** 40)), 64 * 1024 * 1024),
  openCheckouts: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(10_000_000)), 10_000),
  clientSharePercent: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100)), 1),
  /** The GET /download `source` values counted as they are (core/budgets/usage.ts); any other is counted as "other". */
  downloadSources: v.optional(
    v.pipe(v.array(v.pipe(v.string(), v.regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be 1 to 64 letters, digits, ".", "_" or "-"'))), v.maxLength(100)),
    [],
  ),
  /** Where the buyer's browser goes after the hosted checkout (Stripe and the simulator). */
  checkoutReturn: v.optional(CheckoutReturnSchema),
  /** Stripe's prices, used when PAYMENT_GATEWAY=stripe. */
  stripe: v.optional(StripeFileSchema),
  /** The product name of the desktop app's User-Agent token (`LegacySheetConverter/2.4.1`), counted by installed version. */
  userAgentProduct: v.optional(
    v.pipe(v.string(), v.regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$/, 'must be an HTTP token of 1 to 64 characters, such as LegacySheetConverter')),
    'LegacySheetConverter',
  ),
  /** When a ramping release is halted (docs/releases.md "The halt rule"). */
  haltRule: v.optional(
    v.strictObject({
      factor: v.optional(v.pipe(v.number(), v.minValue(1), v.maxValue(1000)), 3),
      minClients: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1_000_000)), 10),
      minNetworks: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1_000_000)), 10),
      confidence: v.optional(v.pipe(v.number(), v.minValue(0.5), v.maxValue(0.999999)), 0.999),
    }),
    {},
  ),
  /** The mails' sender and texts (docs/mail.md); SMTP_URL in the environment turns sending on. */
  mail: v.optional(MailFileSchema),
  /** The update files under /updates/ (docs/updates.md "The update files"). */
  updates: v.optional(
    v.strictObject({
      /** The max-age of timestamp.json: how long a cache may serve it before asking again. */
      timestampMaxAgeSeconds: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(3600)), 60),
      /** The caches to purge once new files are stored (docs/operating.md "Purging the caches"); UPDATES_PURGE_TOKEN holds Cloudflare's or Fastly's token. */
      purge: v.optional(PurgeFileSchema),
      /** Release channels beyond stable and beta, each less stable than the one before (docs/releases.md "Channels"). */
      channels: v.optional(
        v.pipe(
          v.array(v.pipe(v.string(), v.regex(CHANNEL_NAME, 'must be 1 to 32 of a-z, 0-9 and "-"'))),
          v.check((named) => typeof channelLine(named) !== 'string', 'must name each channel once, neither stable nor beta (they always exist), at most 6'),
        ),
        [],
      ),
    }),
    {},
  ),
});

export type ConfigFile = v.InferOutput<typeof ConfigFileSchema>;

/**
 * Validates a config file's parsed JSON.
 *
 * @param input The parsed JSON.
 * @param label How the file is named in the error (its path, or "the bundled config file").
 * @throws ConfigError naming the first field that is refused.
 */
export function parseConfigFile(input: unknown, label: string): ConfigFile {
  const parsed = v.safeParse(ConfigFileSchema, input);
  if (parsed.success) return parsed.output;
  const issue = parsed.issues[0];
  const field = v.getDotPath(issue) ?? '(top level)';
  const problem = !v.getDotPath(issue)
    ? issue.message
    : issue.received === 'undefined' && issue.kind === 'schema'
    ? 'is required'
    : issue.type === 'strict_object' && issue.expected === 'never'
    ? 'is not a known setting'
    : issue.message;
  throw new ConfigError(`${label}: field "${field}" ${problem}`);
}

/**
 * The options of createApp that the config file sets, the same for the standalone server and the Worker
 * (each adds its storage, gateway, clock and what only it has).
 */
export function appOptionsOf(settings: FileSettings) {
  return {
    content: settings.content,
    corsOrigins: settings.corsOrigins,
    aliasDeprecation: settings.aliasDeprecation,
    bodyLimit: settings.bodyLimit,
    checkoutTtlMs: settings.checkoutTtlMs,
    openCheckoutsPerClient: settings.openCheckoutsPerClient,
    licenseLeaseDays: settings.licenseLeaseDays,
    updateWindows: settings.updateWindows,
    budgets: settings.budgets,
    usageSources: settings.downloadSources,
    userAgentProduct: settings.userAgentProduct,
    haltRule: settings.haltRule,
    ...(settings.docsUrl ? { docsUrl: settings.docsUrl } : {}),
  } satisfies Partial<AppOptions>;
}

/** The update files' options of a validated file; the server adds the online key. */
export function updateOptionsOf(settings: FileSettings) {
  return { timestampMaxAge: settings.updates.timestampMaxAgeSeconds, channels: settings.updates.channels } satisfies NonNullable<AppOptions['updates']>;
}

/**
 * The app settings of a validated file, in the units createApp takes. Their types are read off the
 * schema (`ConfigFile`) through this mapping: `FileSettings` and the server's `ServerConfig` derive from
 * it, so a field is declared once, in `ConfigFileSchema`.
 */
export function fileSettings(config: ConfigFile) {
  const { offer, download, roadmap } = config;
  const dates = config.aliasDeprecation;
  const content: SiteContent = { offer, download, roadmap };
  const aliasDeprecation: AliasDeprecation | null = dates ? { deprecatedAt: Date.parse(dates.deprecatedAt), sunsetAt: Date.parse(dates.sunsetAt) } : null;
  const budgets: Budgets = {
    feedbackBytesPerClientPerDay: config.feedbackBytesPerClientPerDay,
    feedbackBytesPerDay: config.feedbackBytesPerDay,
    openCheckouts: config.openCheckouts,
    clientSharePercent: config.clientSharePercent,
  };
  const haltRule: HaltRule = { ...DEFAULT_HALT_RULE, ...config.haltRule };
  return {
    content,
    /** The public address, without a trailing slash; null: the server's own (http://localhost:<port>). */
    publicBaseUrl: config.publicBaseUrl?.replace(/\/+$/, '') ?? null,
    docsUrl: config.docsUrl ?? null,
    corsOrigins: config.corsOrigins,
    aliasDeprecation,
    bodyLimit: config.bodyLimitBytes,
    checkoutTtlMs: config.checkoutTtlMinutes * 60_000,
    openCheckoutsPerClient: config.openCheckoutsPerClient,
    /** Days a valid license standing lets the desktop app run offline. */
    licenseLeaseDays: config.licenseLeaseDays,
    /** The update window each SKU's keys are sold with (core/licensing/sale-windows.ts). */
    updateWindows: saleWindowsOf(config.skus),
    /** Feedback and open-session budgets (core/budgets/budgets.ts). */
    budgets,
    /** The GET /download sources counted as they are (core/budgets/usage.ts). */
    downloadSources: config.downloadSources,
    /** The desktop app's User-Agent product name (core/releases/release-watch.ts). */
    userAgentProduct: config.userAgentProduct,
    /** When a ramping release is halted (core/releases/halt-rule.ts). */
    haltRule,
    /** The update files (core/updates). */
    updates: config.updates,
  };
}

/** What the file sets for the app: `fileSettings`'s answer. */
export type FileSettings = ReturnType<typeof fileSettings>;
