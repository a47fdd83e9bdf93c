/**
 * The standalone server's configuration: one JSON file for content and settings, the environment for
 * the process and for secrets. Every error names the field and stops the server.
 *
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCidrList } from '../core/clients/cidr.ts';
import type { CidrSet } from '../core/clients/client-ip.ts';
import type { LicenseKeyFormat } from '../core/licensing/license.ts';
import { ConfigError } from './config-error.ts';
import { type FileSettings, fileSettings, parseConfigFile } from './config-schema.ts';
import { type HttpLimits, httpLimits } from './http-limits.ts';
import { type ObservabilitySettings, observabilitySettings } from './observability-config.ts';
import { checkOperatorPort, type OperatorSettings, operatorSettings } from './operator-config.ts';
import { type PaymentConfig, paymentConfig } from './payment-config.ts';
import { type MailConfig, mailConfig } from './mail-config.ts';
import { type PurgeSettings, purgeSettings } from './purge-config.ts';
import { smtpUrlProblem } from '../adapters/smtp/url.ts';
import { type StorageSettings, storageSettings } from './storage-config.ts';

export { ConfigError } from './config-error.ts';

/** The example shipped with the server, served when nothing is configured. */
export const EXAMPLE_CONFIG = fileURLToPath(new URL('../example/config.json', import.meta.url));

/** Everything the server is started with: what the config file sets (`FileSettings`) and the environment. */
export interface ServerConfig extends FileSettings {
  file: string;
  isExample: boolean;
  port: number;
  host: string;
  storage: StorageSettings;
  trustedProxies: CidrSet | null;
  /** EVENT_RETENTION_DAYS: days an outbound event is kept once its deliveries are done (30 by default). */
  eventRetentionDays: number;
  /** WEBHOOK_ALLOW_NETWORKS: non-public ranges webhooks may be sent to (core/webhooks/address.ts); null: none. */
  webhookAllowNetworks: CidrSet | null;
  /** Timeouts and connection caps of the HTTP server (node:http applies them all; see docs/deploy.md). */
  http: HttpLimits;
  /** The product's version file, resolved against the config file's folder. */
  versionFile: string;
  voterSecret: string | undefined;
  licenseSigningKey: string | undefined;
  /** UPDATES_ONLINE_KEY: the online key of the update files (base64 PKCS#8 Ed25519); else one kept in storage. */
  updatesOnlineKey: string | undefined;
  /** The file's `updates.purge` with UPDATES_PURGE_TOKEN: the caches purged after new files are stored; null: none. */
  updatesPurge: PurgeSettings | null;
  /** LICENSE_KEY_FORMAT: v2 (default) or v1, for desktop apps without the version-2 verifier. */
  licenseKeyFormat: LicenseKeyFormat;
  payment: PaymentConfig;
  /** LOG_LEVEL, LOG_REQUESTS, METRICS_PORT and METRICS_HOST. */
  observability: ObservabilitySettings;
  /** OPERATOR_PORT, OPERATOR_HOST and OPERATOR_TOKEN; null when the operator listener is off. */
  operator: OperatorSettings | null;
  /** SMTP_URL and the file's `mail` section (docs/mail.md). */
  mail: MailConfig;
}

function port(env: NodeJS.ProcessEnv): number {
  const text = env['PORT'] ?? '8080';
  const value = Number(text);
  if (!/^\d+$/.test(text) || value > 65535) throw new ConfigError(`PORT must be a port number from 0 to 65535, not ${JSON.stringify(text)}`);
  return value;
}

function cidrList(env: NodeJS.ProcessEnv, name: string): CidrSet | null {
  const list = env[name]?.trim();
  if (!list) return null;
  try {
    return parseCidrList(list);
  } catch (error) {
    throw new ConfigError(`${name}: ${(error as Error).message}`);
  }
}

function eventRetentionDays(env: NodeJS.ProcessEnv): number {
  const text = env['EVENT_RETENTION_DAYS']?.trim() || '30';
  if (!/^\d{1,5}$/.test(text) || Number(text) < 1) {
    throw new ConfigError(`EVENT_RETENTION_DAYS must be a whole number of days, at least 1, not ${JSON.stringify(text)}`);
  }
  return Number(text);
}

const trustedProxies = (env: NodeJS.ProcessEnv) => cidrList(env, 'TRUSTED_PROXIES');

function smtpUrl(env: NodeJS.ProcessEnv): string | null {
  const url = env['SMTP_URL']?.trim();
  if (!url) return null;
  const problem = smtpUrlProblem(url);
  // The URL holds the password: never repeated in the message.
  if (problem !== null) throw new ConfigError(`SMTP_URL ${problem}`);
  return url;
}

/** The host of the default sender address: publicBaseUrl's, else the SMTP server's. */
function senderHost(publicBaseUrl: string | undefined, smtp: string | null): string {
  const host = new URL(publicBaseUrl ?? smtp ?? 'http://localhost').hostname.replace(/^\[|\]$/g, '');
  return host.replace(/^www\./, '') || 'localhost';
}

function licenseKeyFormat(env: NodeJS.ProcessEnv): LicenseKeyFormat {
  const text = env['LICENSE_KEY_FORMAT']?.trim() || 'v2';
  if (text !== 'v1' && text !== 'v2') throw new ConfigError(`LICENSE_KEY_FORMAT must be v2 or v1, not ${JSON.stringify(text)}`);
  return text;
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
  const operator = operatorSettings(env);
  checkOperatorPort(operator, port(env), env['HOST'] || '127.0.0.1');
  const file = configFilePath(env, cwd);
  const config = parseConfigFile(readJson(file), file);
  if (config.versionFile === undefined) throw new ConfigError(`${file}: field "versionFile" is required`);
  return {
    file,
    isExample: config.exampleContent,
    port: port(env),
    // Loopback unless told: the simulator signs license keys, so a development server stays off the LAN.
    host: env['HOST'] || '127.0.0.1',
    storage: storageSettings(env, cwd),
    trustedProxies: trustedProxies(env),
    webhookAllowNetworks: cidrList(env, 'WEBHOOK_ALLOW_NETWORKS'),
    eventRetentionDays: eventRetentionDays(env),
    http: httpLimits(env),
    ...fileSettings(config),
    versionFile: resolve(dirname(file), config.versionFile),
    voterSecret: env['VOTER_SECRET'] || undefined,
    licenseSigningKey: env['LICENSE_SIGNING_KEY'] || undefined,
    updatesOnlineKey: env['UPDATES_ONLINE_KEY'] || undefined,
    updatesPurge: purgeSettings(config.updates.purge, env['UPDATES_PURGE_TOKEN'], file),
    licenseKeyFormat: licenseKeyFormat(env),
    payment: paymentConfig(env, config.stripe, file, config.checkoutReturn),
    observability: observabilitySettings(env),
    operator,
    mail: mailConfig(smtpUrl(env), config.mail, config.offer.productDisplayName, senderHost(config.publicBaseUrl, smtpUrl(env))),
  };
}
