/**
 * The Cloudflare Worker program's wiring: memory storage (one per isolate), the payment simulator, and
 * the content of a config file bundled into the Worker. Settings that differ per deployment come from the
 * Worker's variables and secrets (see wrangler.toml).
 *
 * @module
 */
import * as v from 'valibot';
import { createMemoryStorage } from '../adapters/memory/index.ts';
import { createSimulatorGateway } from '../adapters/simulator/index.ts';
import { createWorker, type WorkerModule } from '../adapters/workers/index.ts';
import { createApp } from '../core/app.ts';
import { createLicenseIssuer } from '../core/license.ts';
import { siteContentObject } from '../core/schemas/content.ts';
import { VersionString } from '../core/schemas/responses.ts';

/** The Worker's variables and secrets. */
export interface SiteWorkerEnv {
  /** The current desktop version (a Worker has no version file to read). Required. */
  PRODUCT_VERSION?: string;
  /** The public address of the API; the config file's publicBaseUrl otherwise. */
  PUBLIC_BASE_URL?: string;
  /** Secret of the voter hashes; one is generated per isolate otherwise. */
  VOTER_SECRET?: string;
  /** Ed25519 license signing key, base64 PKCS#8; one is generated per isolate otherwise. */
  LICENSE_SIGNING_KEY?: string;
}

const IsoDate = v.pipe(v.string(), v.isoTimestamp());

/**
 * The parts of the config file a Worker reads; the rest (versionFile, stripe, $comment...) is ignored:
 * the Worker has no version file and takes payments through the simulator only.
 */
const WorkerConfigSchema = v.object({
  ...siteContentObject.entries,
  publicBaseUrl: v.optional(v.pipe(v.string(), v.url())),
  docsUrl: v.optional(v.pipe(v.string(), v.url())),
  corsOrigins: v.optional(v.array(v.string()), []),
  aliasDeprecation: v.optional(v.nullable(v.object({ deprecatedAt: IsoDate, sunsetAt: IsoDate })), null),
  bodyLimitBytes: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1024)), 16384),
  checkoutTtlMinutes: v.optional(v.pipe(v.number(), v.integer(), v.minValue(5)), 1440),
});

/**
 * Creates the Worker from a config file's parsed JSON.
 *
 * @param configFile The config file, as the standalone server reads it.
 * @returns The module Worker to `export default`.
 */
export function createSiteWorker(configFile: unknown): WorkerModule<SiteWorkerEnv> {
  return createWorker(async (env: SiteWorkerEnv) => {
    const config = v.parse(WorkerConfigSchema, configFile);
    const version = v.parse(VersionString, env.PRODUCT_VERSION);
    const publicBaseUrl = env.PUBLIC_BASE_URL ?? config.publicBaseUrl ?? 'http://localhost:8787';
    const storage = createMemoryStorage();
    const { offer, download, roadmap } = config;
    const dates = config.aliasDeprecation;
    return createApp({
      content: { offer, download, roadmap },
      version: { current: () => version },
      storage,
      gateway: createSimulatorGateway({ storage, publicBaseUrl }),
      publicBaseUrl,
      corsOrigins: config.corsOrigins,
      bodyLimit: config.bodyLimitBytes,
      checkoutTtlMs: config.checkoutTtlMinutes * 60_000,
      ...(config.docsUrl ? { docsUrl: config.docsUrl } : {}),
      ...(dates ? { aliasDeprecation: { deprecatedAt: Date.parse(dates.deprecatedAt), sunsetAt: Date.parse(dates.sunsetAt) } } : {}),
      ...(env.VOTER_SECRET ? { voterSecret: env.VOTER_SECRET } : {}),
      ...(env.LICENSE_SIGNING_KEY ? { licenses: await createLicenseIssuer(env.LICENSE_SIGNING_KEY) } : {}),
    });
  });
}
