/**
 * What an operator operation is given: the same ports as the public operations of its app, so that a
 * change is served by that app at once.
 *
 * @module
 */
import type { AppEvent, Clock, LicenseIssuer, Logger, PaymentGateway, Storage } from '../ports/ports.ts';
import type { ReleaseView } from '../releases/release-view.ts';
import type { UsageTally } from '../budgets/usage.ts';
import type { WebhookAddressPolicy } from '../webhooks/address.ts';
import type { MailSettings } from '../mail/messages.ts';

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
  /** Where webhooks may be sent (core/webhooks/address.ts); every non-public address refused when absent. */
  readonly webhookAddresses?: WebhookAddressPolicy | undefined;
  count(event: AppEvent, times?: number): void;
}

/** Who asks for a change: what the audit trail and the log say of it. */
export interface Caller {
  /** The request id of the HTTP request (or page action) the change came with. */
  readonly requestId: string;
}

/** Writes a change to the audit trail and the log (every operator change goes through here). */
export async function recordChange(context: OperatorContext, caller: Caller, action: string, target: string): Promise<void> {
  await context.storage.audit.record({ at: context.clock.now(), action, target, requestId: caller.requestId });
  context.logger.info('operator change', { action, target, requestId: caller.requestId });
}
