/**
 * What an app is made of (`AppOptions`, re-exported by app.ts) and the context built from it
 * (context.ts's `AppContext`): the options with their defaults, the keyed hashes of the voter secret,
 * the license issuer, the release view, readiness and the usage tally.
 *
 * @module
 */
import { createAnswerSignatures } from './releases/answer-signature.ts';
import { DEFAULT_BODY_LIMIT } from './http/body.ts';
import { type Budgets, DEFAULT_BUDGETS } from './budgets/budgets.ts';
import { DEFAULT_OPEN_CHECKOUTS_PER_CLIENT } from './budgets/checkout-cap.ts';
import type { OperatorRoutes } from './operator/app.ts';
import type { OperatorToken } from './operator/named-tokens.ts';
import type { CidrSet } from './clients/client-ip.ts';
import type { ClientAddressPolicy } from './clients/client-address.ts';
import type { AppContext } from './context.ts';
import type { AliasDeprecation } from './http/deprecation.ts';
import { createKeyedMac, randomSecret } from './clients/keyed-hash.ts';
import { createLicenseIssuer, generateSigningKey } from './licensing/license.ts';
import { LIFETIME_SALES, type SaleWindows, saleWindowsProblem } from './licensing/sale-windows.ts';
import type { Clock, LicenseIssuer, Logger, Observer, OfferSource, PaymentGateway, Storage, VersionSource } from './ports/ports.ts';
import type { RateLimitPolicy } from './pipeline/rate-limit.ts';
import { createReadiness } from './pipeline/readiness.ts';
import { createReleaseView, type Release, type ServedNow, type ServedRelease } from './releases/release-view.ts';
import { createRampAnnouncements } from './releases/ramp-announcements.ts';
import { channelLine } from './releases/channels.ts';
import { DEFAULT_TIMESTAMP_MAX_AGE } from './updates/files-route.ts';
import type { TufSigner } from './tuf/keys.ts';
import { cohortSeeds, createUpdatePublisher } from './updates/publisher.ts';
import { createInstallInRamp } from './updates/install-cohort.ts';
import { createReleaseSummaries } from './updates/summaries.ts';
import { createCachePurges } from './updates/cache-purges.ts';
import type { CachePurge } from './ports/cache-purge.ts';
import { createServedFiles, UPDATE_SKEW_MS } from './updates/served-files.ts';
import { createShipmentNotes } from './releases/shipped.ts';
import { createRolloutBucket } from './releases/rollout-rule.ts';
import { createReleaseWatch, DEFAULT_USER_AGENT_PRODUCT } from './releases/release-watch.ts';
import { DEFAULT_HALT_RULE, type HaltRule } from './releases/halt-rule.ts';
import type { SiteContent } from './schemas/content.ts';
import { createUsageTally } from './budgets/usage.ts';
import { createVoterId, createVoterNetwork } from './clients/voter-id.ts';
import { STRICT_WEBHOOK_ADDRESSES, type WebhookAddressPolicy } from './webhooks/address.ts';
import { mailSettings } from './mail/messages.ts';
import type { MailTexts } from './mail/texts.ts';
import type { MailHtml } from './ports/mail.ts';
import { createUnsubscribeTokens } from './mail/unsubscribe.ts';
import { countCommittedChanges } from './ports/change.ts';
import { createChangelogReads } from './changelog/reads.ts';

/** Everything an app is made of. Only content, version, storage and gateway are required. */
export interface AppOptions {
  content: SiteContent;
  version: VersionSource;
  storage: Storage;
  gateway: PaymentGateway;
  /** Where GET pricing reads the offer; by default the fixed `content.offer`. */
  offer?: OfferSource;
  /** Signs license keys; by default an Ed25519 key kept in storage under "license-signing-key". */
  licenses?: LicenseIssuer;
  clock?: Clock;
  logger?: Logger;
  /** The quota; 120 requests per 60 s by default. */
  rateLimit?: RateLimitPolicy;
  /**
   * What a metered request with no client address (`clientIp` '') gets: `shared` (the default) serves it
   * as one client shared by all such requests, warning once and counting each; `required` answers 500
   * client_address_missing. Default `shared`, so that a host without addresses (`next dev`) still serves
   * while the warning says what to fix; set `required` in production (core/clients/client-address.ts).
   */
  clientAddress?: ClientAddressPolicy;
  /** Origins allowed to call from a browser; none by default. */
  corsOrigins?: readonly string[];
  /** Marks the unversioned /api aliases deprecated; off by default. */
  aliasDeprecation?: AliasDeprecation | null;
  /** The largest request body in bytes; 16 KiB by default. */
  bodyLimit?: number;
  /** How long an unpaid checkout session stays open; 24 hours by default. */
  checkoutTtlMs?: number;
  /** The most open (pending, unexpired) checkout sessions one client may hold; 10 by default. */
  openCheckoutsPerClient?: number;
  /** How long a valid answer of POST /licenses/validate lets the app run offline (its lease), in days; 14 by default. */
  licenseLeaseDays?: number;
  /**
   * The update window each SKU's keys are sold with (issue 56, core/licensing/sale-windows.ts): days of
   * updates from a key's issue day, or null for lifetime; stored with the keys at each sale. Lifetime for
   * every SKU by default.
   */
  updateWindows?: SaleWindows;
  /** Feedback and open-session budgets; `DEFAULT_BUDGETS` for those not given (docs/deploy.md). */
  budgets?: Partial<Budgets>;
  /** The public address of the API for the discovery documents; http://localhost:8080 by default. */
  publicBaseUrl?: string;
  /** Where the repository's docs/ folder is published, for links in /llms.txt; none by default. */
  docsUrl?: string;
  /** The secret of voter hashes; by default one generated and kept in storage under "voter-secret". */
  voterSecret?: string;
  /** Watches every answer and counts events (metrics, the access log); none by default. */
  observer?: Observer;
  /**
   * The operator token (at least 32 characters): with it (or `operatorTokens`) the app also has an operator
   * app (`app.operator`) for its own listener. Its changes are audited as `operator`'s. None by default.
   */
  operatorToken?: string;
  /**
   * Each operator's own token and name (core/operator/named-tokens.ts), beside or instead of
   * `operatorToken`: the audit trail says whose token made each change. None by default.
   */
  operatorTokens?: readonly OperatorToken[];
  /**
   * The `source` values of GET /download kept as they are in the usage counts and metrics; any other is
   * counted as `other`, so that no client can add rows or series. None by default.
   */
  usageSources?: readonly string[];
  /** Proxies in front of the operator listener whose X-Forwarded-Proto its pages believe; none by default. */
  operatorProxies?: CidrSet | null;
  /**
   * Routes added to the operator listener beside the API, such as the operator pages
   * (`operatorPages` of converter-site-api/operator-pages). None by default: the API alone.
   */
  operatorRoutes?: OperatorRoutes;
  /**
   * Whether GET /version and GET /download carry an RFC 9421 signature made with the license key
   * (docs/updates.md); true by default, when the license issuer can sign.
   */
  signAnswers?: boolean;
  /**
   * Where webhooks may be sent (core/webhooks/address.ts): the non-public ranges allowed, DNS, this
   * server's listeners. Every loopback, private, link-local or reserved address is refused by default.
   */
  webhookAddresses?: WebhookAddressPolicy;
  /** The product name of the desktop app's User-Agent token (`LegacySheetConverter/2.4.1`); that one by default. */
  userAgentProduct?: string;
  /** When a ramping release is halted (core/releases/halt-rule.ts); `DEFAULT_HALT_RULE` for what is not given. */
  haltRule?: Partial<HaltRule>;
  /**
   * Mail (docs/mail.md): whether a sender is configured (mails are always written to the outbox, and
   * sent only then), and texts replacing the defaults. Off, with the default texts, by default.
   */
  mail?: {
    enabled?: boolean;
    texts?: Partial<MailTexts>;
    /** false: no requester is told when their request ships (core/mail/shipped-requests.ts); on by default. */
    requestersTold?: boolean;
  };
  /**
   * Renders the mails' HTML part (docs/mail.md): `mailHtml` of `converter-site-api/mail-html`, or your own.
   * Without one, mails are written with an empty HTML part and sent as text only.
   */
  mailHtml?: MailHtml;
  /**
   * The update files under /updates/{channel}/ (issue 54, docs/updates.md "The update files"): the release
   * channels beyond `stable` and `beta` (core/releases/channels.ts) and the timestamp's max-age in seconds
   * (60 by default).
   */
  updates?: {
    /** Channels beyond `stable` and `beta`, each less stable than the one before (none by default); a bad name throws. */
    channels?: readonly string[];
    timestampMaxAge?: number;
    /**
     * The online key, which signs timestamp, snapshot and targets once a root names it: without one this
     * app signs no update file (it serves those another instance stored).
     */
    signer?: TufSigner;
    /**
     * Tells the caches in front of the files to drop a channel's copies once this app stored its new files
     * (docs/operating.md "Purging the caches"): the standalone server's Varnish, Cloudflare or Fastly
     * adapter (adapters/cache-purge/), or your own. None by default: caches keep the old timestamp until
     * its max-age.
     */
    purge?: CachePurge;
  };
}

/** The default lease of a valid license standing: two weeks offline, then the app asks again. */
export const DEFAULT_LICENSE_LEASE_DAYS = 14;

/** The update windows of the options, checked; lifetime when not given. */
function saleWindows(given: SaleWindows | undefined): SaleWindows {
  if (given === undefined) return LIFETIME_SALES;
  const problem = saleWindowsProblem(given);
  if (problem !== null) throw new Error(`updateWindows: ${problem}`);
  return given;
}

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
  const voterId = createVoterId(secretKey);
  const voterNetwork = createVoterNetwork(voterId);
  const { version, content } = options;
  const { msiUrl, msiSha256, msiSize } = content.download;
  const integrity = { sha256: msiSha256?.toLowerCase() ?? null, size: msiSize ?? null };
  const servedOf = (current: string): ServedRelease => ({ version: current, msiUrl, ...integrity });
  const baseline = (): ServedNow => {
    const current = version.current();
    return typeof current === 'string' ? servedOf(current) : current.then(servedOf);
  };
  const licenses = options.licenses ?? (await createLicenseIssuer(await storage.secret('license-signing-key', generateSigningKey)));
  // A keyed hash of the client key under the voter secret: stable, and alike on every instance.
  const secretMac = createKeyedMac(secretKey);
  const bucketOf = createRolloutBucket(secretMac);
  // Each step a ramp plan reaches is announced after the read that finds it (once, whichever instance reads first).
  // Every change this app opens, counted once committed: the changelog's reads are read again after one.
  const changes = countCommittedChanges(storage);
  const channels = channelLine(options.updates?.channels ?? []);
  if (typeof channels === 'string') throw new Error(`updates.channels: ${channels}`);
  const announceSteps = createRampAnnouncements({ changes, clock, logger, channels });
  // And a release newly live for everyone gets its time recorded (core/releases/shipped.ts).
  const noteShipments = createShipmentNotes(storage.shipping, clock, logger);
  const afterRead = async (read: readonly Release[]) => {
    await announceSteps(read);
    await noteShipments(read);
  };
  const releases = createReleaseView(storage.releases, baseline, bucketOf, clock, logger, afterRead);
  const timestampMaxAge = options.updates?.timestampMaxAge ?? DEFAULT_TIMESTAMP_MAX_AGE;
  // A superseded file stays served twice the timestamp's max-age, plus the clock skew allowed.
  const keepMs = 2 * timestampMaxAge * 1000 + UPDATE_SKEW_MS;
  const updateFiles = createServedFiles(storage.updateFiles, channels, keepMs);
  await updateFiles.refresh(clock.now());
  const usage = createUsageTally({ store: storage.usage, clock, logger, sources: options.usageSources ?? [], clientHash: voterId });
  const seedOf = cohortSeeds(secretMac);
  const installInRamp = createInstallInRamp(seedOf);
  const watchPorts = { releases, storage, changes, usage, clock, logger, rolloutBucket: bucketOf, clientHash: voterId, installInRamp, channels };
  const rule = { ...DEFAULT_HALT_RULE, ...options.haltRule };
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
    licenseLeaseSeconds: Math.round((options.licenseLeaseDays ?? DEFAULT_LICENSE_LEASE_DAYS) * 86_400),
    updateWindows: saleWindows(options.updateWindows),
    budgets: { ...DEFAULT_BUDGETS, ...options.budgets },
    publicBaseUrl: (options.publicBaseUrl ?? 'http://localhost:8080').replace(/\/+$/, ''),
    docsUrl: options.docsUrl?.replace(/\/+$/, '') ?? null,
    aliasDeprecation: options.aliasDeprecation ?? null,
    voterId,
    voterNetwork,
    rolloutBucket: bucketOf,
    releases,
    updateFiles,
    timestampMaxAge,
    updateSigner: options.updates?.signer ?? null,
    updatePublisher: options.updates?.signer
      ? createUpdatePublisher({
        changes,
        keepMs,
        signer: options.updates.signer,
        clock,
        logger,
        summaries: createReleaseSummaries(storage.features, clock, changes),
        seedOf,
      })
      : null,
    cachePurges: options.updates?.purge ? createCachePurges({ port: options.updates.purge, clock, logger, count }) : null,
    changes,
    changelog: createChangelogReads({ storage, clock, changes }),
    releaseWatch: createReleaseWatch(watchPorts, options.userAgentProduct ?? DEFAULT_USER_AGENT_PRODUCT, rule),
    signatures: options.signAnswers !== false && licenses.signer ? createAnswerSignatures(licenses.signer, clock) : null,
    readiness: createReadiness(() => storage.ping(), () => clock.now(), logger, storageFault),
    webhookAddresses: options.webhookAddresses ?? STRICT_WEBHOOK_ADDRESSES,
    mail: mailSettings(options.content.offer.productDisplayName, options.mail?.enabled ?? false, options.mail?.texts, options.mailHtml ?? null),
    requestersTold: options.mail?.requestersTold ?? true,
    unsubscribeTokens: createUnsubscribeTokens(secretKey),
    usage,
    count,
  };
}
