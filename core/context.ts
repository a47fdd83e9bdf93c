/**
 * What every operation is given: the ports and settings of one app.
 *
 * @module
 */
import type { Answer } from './http/maybe.ts';
import type { WebhookAddressPolicy } from './webhooks/address.ts';
import type { CoreRequest } from './http/http.ts';
import type { AppEvent, Clock, LicenseIssuer, Logger, OfferSource, PaymentGateway, Storage, VersionSource } from './ports/ports.ts';
import type { Budgets } from './budgets/budgets.ts';
import type { AliasDeprecation } from './http/deprecation.ts';
import type { Readiness } from './pipeline/readiness.ts';
import type { UsageTally } from './budgets/usage.ts';
import type { AnswerSignatures } from './releases/answer-signature.ts';
import type { ReleaseView } from './releases/release-view.ts';
import type { ServedFiles } from './updates/served-files.ts';
import type { TufSigner } from './tuf/keys.ts';
import type { UpdatePublisher } from './updates/publisher.ts';
import type { CachePurges } from './updates/cache-purges.ts';
import type { ReleaseWatch } from './releases/release-watch.ts';
import type { SiteContent } from './schemas/content.ts';
import type { MailSettings } from './mail/messages.ts';
import type { UnsubscribeTokens } from './mail/unsubscribe.ts';
import type { CommittedChanges } from './ports/change.ts';
import type { ChangelogReads } from './changelog/reads.ts';
import type { SaleWindows } from './licensing/sale-windows.ts';

/** One public operation: a request-like input to a response-like output. */
export type Operation = (request: CoreRequest) => Answer;

/** The ports and settings an operation works against. */
export interface AppContext {
  readonly content: SiteContent;
  /** The live offer; `content.offer` unless the app was given another source. */
  readonly offer: OfferSource;
  readonly version: VersionSource;
  /** The stored releases and the configured baseline, as GET /version and GET /download serve them. */
  readonly releases: ReleaseView;
  /** The update files of each channel, held in memory (core/updates/served-files.ts). */
  readonly updateFiles: ServedFiles;
  /** The max-age of timestamp.json, in seconds. */
  readonly timestampMaxAge: number;
  /** The update files' online key (signs timestamp, snapshot and targets); null: this app signs none. */
  readonly updateSigner: TufSigner | null;
  /** Signs and stores a channel's update files when they are due (core/updates/publisher.ts); null without an online key. */
  readonly updatePublisher: UpdatePublisher | null;
  /** Purges the caches of a channel after this app stored its new files (core/updates/cache-purges.ts); null: no purge configured. */
  readonly cachePurges: CachePurges | null;
  /** Installed versions from update checks, bug reports per release and the halt rule (core/releases/release-watch.ts). */
  readonly releaseWatch: ReleaseWatch;
  /** The changes this app committed, counted (core/ports/change.ts): operator changes and the autopilot's halts. */
  readonly changes: CommittedChanges;
  /** The changelog's entries, read at most once a second and at once after a change (core/changelog/reads.ts). */
  readonly changelog: ChangelogReads;
  /** Signs GET /version and GET /download answers (RFC 9421); null when the license issuer has no signer or signing is off. */
  readonly signatures: AnswerSignatures | null;
  readonly storage: Storage;
  readonly gateway: PaymentGateway;
  readonly licenses: LicenseIssuer;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The largest request body, in bytes. */
  readonly bodyLimit: number;
  /** How long an unpaid checkout session stays open, in milliseconds. */
  readonly checkoutTtlMs: number;
  /** The most open (pending, unexpired) checkout sessions one client may hold. */
  readonly openCheckoutsPerClient: number;
  /** How long a valid license standing lets the desktop app run without asking again, in seconds. */
  readonly licenseLeaseSeconds: number;
  /** The update window each SKU's keys are sold with (core/licensing/sale-windows.ts), stored with them at each sale. */
  readonly updateWindows: SaleWindows;
  /** What all clients together, and each one's share, may add of feedback and open sessions (core/budgets/budgets.ts). */
  readonly budgets: Readonly<Budgets>;
  /** The public address of this API, without a trailing slash, for links in documents. */
  readonly publicBaseUrl: string;
  /** Where the repository's docs/ folder is published, without a trailing slash; null when not given. */
  readonly docsUrl: string | null;
  /** When set, the unversioned /api aliases carry deprecation notices. */
  readonly aliasDeprecation: AliasDeprecation | null;
  /** The stored identity of a voter: a keyed hash of the client key, never the raw address. */
  voterId(clientKey: string): string;
  /** The keyed hash of the voter's IPv6 /48, or null for IPv4: a feature counts at most a few votes of one. */
  voterNetwork(clientIp: string): string | null;
  /** The client's rollout bucket (0-99): stable for a client, the same on every instance. */
  rolloutBucket(clientKey: string): number;
  /** Whether this instance should get traffic (GET /readyz). */
  readonly readiness: Readiness;
  /** Where webhooks may be sent (core/webhooks/address.ts). */
  readonly webhookAddresses: WebhookAddressPolicy;
  /** Downloads and update checks by day, release, source and platform (core/budgets/usage.ts). */
  readonly usage: UsageTally;
  /** The mails' texts, and whether a sender is configured (core/mail). */
  readonly mail: MailSettings;
  /** Whether requesters are told when their request ships (config `mail.requestersTold`, on by default). */
  readonly requestersTold: boolean;
  /** The one-click unsubscribe tokens of the shipped-request mails (core/mail/unsubscribe.ts). */
  readonly unsubscribeTokens: UnsubscribeTokens;
  /** Counts an event for the observer's metrics; does nothing without an observer. */
  count(event: AppEvent, times?: number): void;
}
