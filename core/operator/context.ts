/**
 * What an operator operation is given: the same ports as the public operations of its app, so that a
 * change is served by that app at once.
 *
 * @module
 */
import type { CoreRequest, CoreResponse } from '../http.ts';
import type { Clock, Logger, Storage } from '../ports.ts';
import type { ReleaseView } from '../releases.ts';

/** One entry of the audit trail: every change made through the operator API. */
export interface AuditEntry {
  at: number;
  /** What was done, e.g. "release.published". */
  action: string;
  /** What it was done to, e.g. "2.5.0 at 10%". */
  target: string;
  /** The X-Request-Id of the request that made it, to find its log lines. */
  requestId: string;
}

/** Where the audit trail is kept (every storage has one). */
export interface AuditStore {
  record(entry: AuditEntry): Promise<void>;
  /** The latest entries, newest first. */
  list(limit: number): Promise<AuditEntry[]>;
}

export interface OperatorContext {
  readonly storage: Storage;
  readonly releases: ReleaseView;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly bodyLimit: number;
}

/** An operator operation: like a public one, with the path's named segments. */
export type OperatorHandler = (request: CoreRequest, params: Record<string, string>) => Promise<CoreResponse>;
