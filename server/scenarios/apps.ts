/**
 * One app of the project per scenario (docs/conformance.md "Testing the desktop app"): createApp over
 * memory storage and the payment simulator, signing with the published test key, on the scenario server's
 * clock, its releases published and pulled through the release store as an operator would.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import * as v from 'valibot';
import { mailHtml } from '../../adapters/mail-html/index.ts';
import { createMemoryStorage, type MemoryStorage } from '../../adapters/memory/index.ts';
import { createFetchHandler, type FetchHandler } from '../../adapters/fetch/index.ts';
import { createSimulatorGateway } from '../../adapters/simulator/index.ts';
import { type App, createApp } from '../../core/app.ts';
import { createLicenseIssuer } from '../../core/licensing/license.ts';
import type { RateLimitPolicy } from '../../core/pipeline/rate-limit.ts';
import type { Clock, Logger, PaymentGateway } from '../../core/ports/ports.ts';
import { type SiteContent, SiteContentSchema } from '../../core/schemas/content.ts';
import { sha256Hex } from '../../core/tuf/keys.ts';
import { EXAMPLE_CONFIG } from '../config.ts';
import { installerBytes, installerName } from './installer.ts';
import { SCENARIO_KEY } from './test-keys.ts';

/** The version the desktop app under test is taken to have installed: the baseline of every scenario. */
export const INSTALLED_VERSION = '2.6.2';
/** The version a scenario's release offers. */
export const NEW_VERSION = '2.7.0';

/** A release of a scenario. */
export interface ScenarioRelease {
  version: string;
  /** The share offered it, in basis points (10000: everyone). */
  rolloutBasisPoints: number;
  critical?: boolean;
  /** Pulled after it was published: served to nobody. */
  pulled?: boolean;
  /** Published without its installer's SHA-256 and size: its answers carry no Installer-Digest nor Installer-Size. */
  unhashed?: boolean;
}

/** How one scenario's app is made. */
export interface AppSetup {
  releases?: readonly ScenarioRelease[];
  /** The app's clock runs this far behind the server's (its signatures are that much older); negative: ahead. */
  behindMs?: number;
  rateLimit?: RateLimitPolicy;
  /** Fixes the rollout buckets (a keyed hash of each client under this secret). */
  voterSecret?: string;
  /** Its version source fails: every update check is a 500. */
  failing?: boolean;
  /** The version of its version file and baseline installer: the installed version by default. */
  baselineVersion?: string;
  /** The key it signs with (and issues license keys with): the scenario key by default. */
  signingKey?: string;
  /** Storage shared with another scenario's app (the same orders under another key). */
  storage?: MemoryStorage;
}

/** Where a scenario's app is and what it runs on. */
export interface AppPlace {
  /** The scenario's own prefix on the scenario server: http://127.0.0.1:8787/scenario/<name>. */
  prefix: string;
  clock: Clock;
  logger: Logger;
}

export interface ScenarioApp {
  app: App;
  handle: FetchHandler;
  storage: MemoryStorage;
}

let content: SiteContent | null = null;

/** The example config's offer and roadmap, read once. */
function exampleContent(): SiteContent {
  if (content === null) {
    const raw = JSON.parse(readFileSync(EXAMPLE_CONFIG, 'utf8')) as Record<string, unknown>;
    content = v.parse(SiteContentSchema, { offer: raw['offer'], download: raw['download'], roadmap: raw['roadmap'] });
  }
  return content;
}

/**
 * Creates a scenario's app, its baseline the installed version (its installer at the scenario's own
 * address), and publishes (and pulls) its releases.
 */
export async function createScenarioApp(place: AppPlace, setup: AppSetup = {}): Promise<ScenarioApp> {
  const behind = setup.behindMs ?? 0;
  const clock: Clock = behind === 0 ? place.clock : { now: () => place.clock.now() - behind };
  const storage = setup.storage ?? createMemoryStorage({ clock });
  const baselineVersion = setup.baselineVersion ?? INSTALLED_VERSION;
  const baseline = installerBytes(baselineVersion);
  const site: SiteContent = {
    ...exampleContent(),
    download: { msiUrl: `${place.prefix}/installer/${installerName(baselineVersion)}`, msiSha256: await sha256Hex(baseline), msiSize: baseline.length },
  };
  const simulator = createSimulatorGateway({ storage, publicBaseUrl: place.prefix, clock });
  // Keys that are licenses, not simulator keys, so that the app under test takes them as it would a buyer's.
  const gateway: PaymentGateway = { ...simulator, simulated: false };
  const failing = () => {
    throw new Error('the scenario "server-error": the version file cannot be read');
  };
  const app = await createApp({
    content: site,
    storage,
    gateway,
    clock,
    logger: place.logger,
    version: { current: setup.failing ? failing : () => baselineVersion },
    licenses: await createLicenseIssuer(setup.signingKey ?? SCENARIO_KEY),
    publicBaseUrl: place.prefix,
    mailHtml,
    ...(setup.rateLimit ? { rateLimit: setup.rateLimit } : {}),
    ...(setup.voterSecret ? { voterSecret: setup.voterSecret } : {}),
  });
  // The scenario's own set-up, in one change as the operator's publishes are.
  const published = await Promise.all((setup.releases ?? []).map(async (release) => {
    const bytes = installerBytes(release.version);
    return { release, sha256: await sha256Hex(bytes), size: bytes.length };
  }));
  await storage.change(async (tx) => {
    for (const { release, sha256, size } of published) {
      await tx.releases.publishRelease({
        version: release.version,
        msiUrl: `${place.prefix}/installer/${installerName(release.version)}`,
        notesUrl: `${place.prefix}/notes/${release.version}`,
        rolloutBasisPoints: release.rolloutBasisPoints,
        publishedAt: clock.now(),
        ...(release.unhashed ? {} : { sha256, size }),
        critical: release.critical ?? false,
      });
      if (release.pulled) await tx.releases.pullRelease(release.version, clock.now());
    }
  });
  await app.refreshReleases();
  return { app, handle: createFetchHandler(app), storage };
}

/**
 * Buys a product through the app's payment simulator and returns its license key; `refund` refunds the
 * order afterwards, so the key's standing is revoked.
 */
export async function buyLicense(scenario: ScenarioApp, product: 'standard' | 'plus_bundle', refund = false): Promise<string> {
  const call = async (method: string, path: string, json?: unknown) => {
    return scenario.app.handle({
      method,
      path,
      clientIp: '192.0.2.1',
      headers: json === undefined ? {} : { 'content-type': 'application/json' },
      ...(json === undefined ? {} : { body: JSON.stringify(json) }),
    });
  };
  const created = await call('POST', '/api/v1/checkout/create', { product });
  const { sessionId } = JSON.parse(textOf(created.body)) as { sessionId: string };
  await call('POST', `/checkout/simulator/${sessionId}/pay`);
  const status = await scenario.app.handle({
    method: 'GET',
    path: '/api/v1/checkout/status',
    query: `session_id=${sessionId}`,
    clientIp: '192.0.2.1',
    headers: {},
  });
  const keys = JSON.parse(textOf(status.body)) as { licenseKey: string | null; standardLicenseKey: string | null };
  const key = keys.standardLicenseKey ?? keys.licenseKey;
  if (key === null) throw new Error(`the scenario's purchase of ${product} issued no license key`);
  if (refund) await call('POST', `/checkout/simulator/${sessionId}/refund`);
  return key;
}

function textOf(body: string | Uint8Array | null): string {
  return body === null ? '' : typeof body === 'string' ? body : new TextDecoder().decode(body);
}
