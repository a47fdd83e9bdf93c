/**
 * The standalone server's configuration: one JSON file for content and settings, the environment for
 * the process and for secrets. Every error names the field and stops the server.
 *
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as v from 'valibot';
import { parseCidrList, type CidrSet } from '../core/client-ip.ts';
import type { AliasDeprecation } from '../core/deprecation.ts';
import { siteContentObject, type SiteContent } from '../core/schemas/content.ts';
import { ConfigError } from './config-error.ts';
import { httpLimits, type HttpLimits } from './http-limits.ts';
import { observabilitySettings, type ObservabilitySettings } from './observability-config.ts';
import { CheckoutReturnSchema, paymentConfig, StripeFileSchema, type PaymentConfig } from './payment-config.ts';
import { storageSettings, type StorageSettings } from './storage-config.ts';

export { ConfigError } from './config-error.ts';

/** The example shipped with the server, served when nothing is configured. */
export const EXAMPLE_CONFIG = fileURLToPath(new URL('../example/config.json', import.meta.url));

const IsoDate = v.pipe(v.string(), v.isoTimestamp('must be an ISO 8601 timestamp such as 2027-01-01T00:00:00Z'));

const FileSchema = v.strictObject({
  $comment: v.optional(v.string()),
  /** Marks the shipped example, so the startup log can say so. */
  exampleContent: v.optional(v.boolean(), false),
  publicBaseUrl: v.optional(v.pipe(v.string(), v.url('must be an absolute URL'))),
  /** Where the docs/ folder is published, linked from /llms.txt. */
  docsUrl: v.optional(v.pipe(v.string(), v.url('must be an absolute URL'))),
  /** The product's version file, relative to the config file. */
  versionFile: v.pipe(v.string(), v.minLength(1)),
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
  /** Where the buyer's browser goes after the hosted checkout (Stripe and the simulator). */
  checkoutReturn: v.optional(CheckoutReturnSchema),
  /** Stripe's prices, used when PAYMENT_GATEWAY=stripe. */
  stripe: v.optional(StripeFileSchema),
});

/** Everything the server is started with. */
export interface ServerConfig {
  file: string;
  isExample: boolean;
  port: number;
  host: string;
  storage: StorageSettings;
  trustedProxies: CidrSet | null;
  /** Timeouts and connection caps of the HTTP server (node:http applies them all; see docs/deploy.md). */
  http: HttpLimits;
  /** The public address; null means http://localhost:<the port actually bound>. */
  publicBaseUrl: string | null;
  docsUrl: string | null;
  versionFile: string;
  content: SiteContent;
  corsOrigins: string[];
  aliasDeprecation: AliasDeprecation | null;
  bodyLimit: number;
  checkoutTtlMs: number;
  openCheckoutsPerClient: number;
  voterSecret: string | undefined;
  licenseSigningKey: string | undefined;
  payment: PaymentConfig;
  /** LOG_LEVEL, LOG_REQUESTS, METRICS_PORT and METRICS_HOST. */
  observability: ObservabilitySettings;
}

function port(env: NodeJS.ProcessEnv): number {
  const text = env['PORT'] ?? '8080';
  const value = Number(text);
  if (!/^\d+$/.test(text) || value > 65535) throw new ConfigError(`PORT must be a port number from 0 to 65535, not ${JSON.stringify(text)}`);
  return value;
}

function trustedProxies(env: NodeJS.ProcessEnv): CidrSet | null {
  const list = env['TRUSTED_PROXIES']?.trim();
  if (!list) return null;
  try {
    return parseCidrList(list);
  } catch (error) {
    throw new ConfigError(`TRUSTED_PROXIES: ${(error as Error).message}`);
  }
}

/** Which file to read: CONFIG_FILE, else ./config.json, else the shipped example. */
export function configFilePath(env: NodeJS.ProcessEnv, cwd: string): string {
  if (env['CONFIG_FILE']) return resolve(cwd, env['CONFIG_FILE']);
  const local = resolve(cwd, 'config.json');
  return existsSync(local) ? local : EXAMPLE_CONFIG;
}

function readJson(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${file} is not valid JSON: ${(error as Error).message}`);
  }
}

/**
 * Loads and validates the configuration.
 *
 * @param env The process environment.
 * @param cwd The directory relative paths start from.
 * @throws ConfigError naming the bad field.
 */
export function loadConfig(env: NodeJS.ProcessEnv, cwd: string): ServerConfig {
  const file = configFilePath(env, cwd);
  const parsed = v.safeParse(FileSchema, readJson(file));
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const field = v.getDotPath(issue) ?? '(top level)';
    const problem = !v.getDotPath(issue)
      ? issue.message
      : issue.received === 'undefined' && issue.kind === 'schema'
        ? 'is required'
        : issue.type === 'strict_object' && issue.expected === 'never'
          ? 'is not a known setting'
          : issue.message;
    throw new ConfigError(`${file}: field "${field}" ${problem}`);
  }
  const config = parsed.output;
  const listenPort = port(env);
  const { offer, download, roadmap } = config;
  const dates = config.aliasDeprecation;
  return {
    file,
    isExample: config.exampleContent,
    port: listenPort,
    // Loopback unless told: the simulator signs license keys, so a development server stays off the LAN.
    host: env['HOST'] || '127.0.0.1',
    storage: storageSettings(env, cwd),
    trustedProxies: trustedProxies(env),
    http: httpLimits(env),
    publicBaseUrl: config.publicBaseUrl?.replace(/\/+$/, '') ?? null,
    docsUrl: config.docsUrl ?? null,
    versionFile: resolve(dirname(file), config.versionFile),
    content: { offer, download, roadmap },
    corsOrigins: config.corsOrigins,
    aliasDeprecation: dates ? { deprecatedAt: Date.parse(dates.deprecatedAt), sunsetAt: Date.parse(dates.sunsetAt) } : null,
    bodyLimit: config.bodyLimitBytes,
    checkoutTtlMs: config.checkoutTtlMinutes * 60_000,
    openCheckoutsPerClient: config.openCheckoutsPerClient,
    voterSecret: env['VOTER_SECRET'] || undefined,
    licenseSigningKey: env['LICENSE_SIGNING_KEY'] || undefined,
    payment: paymentConfig(env, config.stripe, file, config.checkoutReturn),
    observability: observabilitySettings(env),
  };
}
