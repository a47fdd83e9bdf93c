/**
 * The context of one app (context.ts's `AppContext`): its options with their defaults, the keyed hashes
 * of the voter secret, the license issuer, the release view, readiness and the usage tally.
 *
 * @module
 */
import type { AppOptions } from './app.ts';
import { DEFAULT_BODY_LIMIT } from './body.ts';
import { DEFAULT_BUDGETS } from './budgets.ts';
import { DEFAULT_OPEN_CHECKOUTS_PER_CLIENT } from './checkout-cap.ts';
import type { AppContext } from './context.ts';
import { randomSecret } from './keyed-hash.ts';
import { createLicenseIssuer, generateSigningKey } from './license.ts';
import type { Clock, Logger, MaybePromise, OfferSource } from './ports.ts';
import { createReadiness } from './readiness.ts';
import { createReleaseView, rolloutBucket, type ServedRelease } from './releases.ts';
import type { SiteContent } from './schemas/content.ts';
import { createUsageTally } from './usage.ts';
import { createVoterId, createVoterNetwork } from './voter-id.ts';

/** The configured offer, always the same object. */
const fixedOffer = (offer: SiteContent['offer']): OfferSource => ({ current: () => offer });

/**
 * The ports and settings every operation is given, from the app's options: the stored secrets are loaded
 * (or created) here.
 */
export async function createContext(
  options: AppOptions,
  clock: Clock,
  logger: Logger,
  count: AppContext['count'],
  storageFault: () => void,
): Promise<AppContext> {
  const { storage } = options;
  const secretKey = options.voterSecret ?? (await storage.secret('voter-secret', randomSecret));
  const voterId = await createVoterId(secretKey, options.hmacSha256);
  const voterNetwork = await createVoterNetwork(secretKey, options.hmacSha256);
  const { version, content } = options;
  const baseline = (): MaybePromise<ServedRelease> => {
    const current = version.current();
    const msiUrl = content.download.msiUrl;
    return typeof current === 'string' ? { version: current, msiUrl } : current.then((v) => ({ version: v, msiUrl }));
  };
  const licenses = options.licenses ?? (await createLicenseIssuer(await storage.secret('license-signing-key', generateSigningKey)));
  return {
    content: options.content,
    offer: options.offer ?? fixedOffer(options.content.offer),
    version: options.version,
    storage,
    gateway: options.gateway,
    licenses,
    clock,
    logger,
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    checkoutTtlMs: options.checkoutTtlMs ?? 24 * 60 * 60 * 1000,
    openCheckoutsPerClient: options.openCheckoutsPerClient ?? DEFAULT_OPEN_CHECKOUTS_PER_CLIENT,
    budgets: { ...DEFAULT_BUDGETS, ...options.budgets },
    publicBaseUrl: (options.publicBaseUrl ?? 'http://localhost:8080').replace(/\/+$/, ''),
    docsUrl: options.docsUrl?.replace(/\/+$/, '') ?? null,
    aliasDeprecation: options.aliasDeprecation ?? null,
    voterId,
    voterNetwork,
    // The voter id is a keyed hash of the client key: its bucket is stable and alike on every instance.
    rolloutBucket: (clientIp) => {
      const id = voterId(clientIp);
      return typeof id === 'string' ? rolloutBucket(id) : id.then(rolloutBucket);
    },
    releases: createReleaseView(storage.releases, baseline, clock, logger),
    readiness: createReadiness(() => storage.ping(), () => clock.now(), logger, storageFault),
    usage: createUsageTally({ store: storage.usage, clock, logger, sources: options.usageSources ?? [] }),
    count,
  };
}
