/**
 * What an operator operation is given: the same ports as the public operations of its app, so that a
 * change is served by that app at once.
 *
 * @module
 */
import type { AppEvent, Clock, LicenseIssuer, Logger, PaymentGateway, Storage } from '../ports/ports.ts';
import type { EventDraft } from '../ports/events.ts';
import { type CommittedChanges, recordChange, type StorageChange } from '../ports/change.ts';
import type { MailDraft } from '../ports/mail.ts';
import type { AuditEntry } from '../ports/store-ports.ts';
import type { ReleaseView } from '../releases/release-view.ts';
import type { UsageTally } from '../budgets/usage.ts';
import type { WebhookAddressPolicy } from '../webhooks/address.ts';
import type { MailSettings } from '../mail/messages.ts';
import type { SaleWindows } from '../licensing/sale-windows.ts';
import type { TufSigner } from '../tuf/keys.ts';
import type { ServedFiles } from '../updates/served-files.ts';
import type { CachePurges } from '../updates/cache-purges.ts';

export type { AuditEntry, AuditStore } from '../ports/store-ports.ts';

export interface OperatorContext {
  readonly storage: Storage;
  readonly releases: ReleaseView;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly bodyLimit: number;
  /** The usage counts of this instance, written before the numbers are read. */
  readonly usage: Pick<UsageTally, 'flush'>;
  /** The payment gateway (orders reconcile) and the key issuer (orders upgrade) of the public app. */
  readonly gateway: PaymentGateway;
  readonly licenses: LicenseIssuer;
  /** The mails' texts, and whether a sender is configured (core/mail). */
  readonly mail: MailSettings;
  /** The update window each SKU sells (orders upgrade stores the Plus add-on's with the key it adds). */
  readonly updateWindows: SaleWindows;
  /** Where webhooks may be sent (core/webhooks/address.ts); every non-public address refused when absent. */
  readonly webhookAddresses?: WebhookAddressPolicy | undefined;
  /** The update files' online key, which a published root must name for timestamp, snapshot and targets; null: none. */
  readonly updateSigner: TufSigner | null;
  /** The update files as this app serves them: the release channels, the most stable first, are their `names`. */
  readonly updateFiles: Pick<ServedFiles, 'names'>;
  /** The caches' purges of the update files (core/updates/cache-purges.ts): a new root asks one; null: no purge configured. */
  readonly cachePurges: Pick<CachePurges, 'request'> | null;
  /** Opens each change and counts it once committed (what keeps storage's answers in memory reads again after one). */
  readonly changes: CommittedChanges;
  count(event: AppEvent, times?: number): void;
}

/** Who asks for a change: what the audit trail and the log say of it. */
export interface Caller {
  /** The request id of the HTTP request (or page action) the change came with. */
  readonly requestId: string;
  /** The name of the operator whose token made the call (named-tokens.ts; `operator` for OPERATOR_TOKEN). */
  readonly actor: string;
}

/** A change for the audit trail: what was done ("release.published"), and to what ("2.5.0 at 10%"). */
export interface Described {
  action: string;
  target: string;
}

/**
 * What an operator change answers, and what it reports: its event, its audit entry (null: nothing
 * changed, no entry), its mail. `at` is the change's time (the clock's now when absent).
 */
export interface Changed<T> {
  result: T;
  at?: number | undefined;
  event?: EventDraft | null | undefined;
  audit?: Described | null | undefined;
  mail?: MailDraft | null | undefined;
}

/**
 * Runs one operator change as a unit of work (core/ports/change.ts): `work` reads, checks and writes
 * through `tx` and says what it changed; its event, audit entry and mail are written with it, in that
 * order, and committed together (opened through `changes`, which counts it). Once committed, its audit
 * entry is logged.
 */
export async function operatorChange<T>(
  context: Pick<OperatorContext, 'changes' | 'clock' | 'logger'>,
  caller: Caller,
  work: (tx: StorageChange) => Promise<Changed<T>>,
): Promise<T> {
  const { result, entry } = await context.changes.change(async (tx) => {
    const changed = await work(tx);
    const at = changed.at ?? context.clock.now();
    const entry: AuditEntry | null = changed.audit ? { at, ...changed.audit, requestId: caller.requestId, actor: caller.actor } : null;
    await recordChange(tx, { at, event: changed.event, audit: entry, mail: changed.mail });
    return { result: changed.result, entry };
  });
  if (entry) context.logger.info('operator change', { action: entry.action, target: entry.target, requestId: entry.requestId, actor: caller.actor });
  return result;
}
