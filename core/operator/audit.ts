/**
 * GET /audit: the trail of changes made through the operator API.
 *
 * @module
 */
import { json } from '../http.ts';
import type { OperatorContext, OperatorHandler } from './context.ts';

/** How many audit entries GET /audit shows. */
export const AUDIT_LIMIT = 200;

/** The latest `AUDIT_LIMIT` entries, newest first, each time as ISO 8601. */
export function listAudit(context: OperatorContext): OperatorHandler {
  return async () => {
    const entries = await context.storage.audit.list(AUDIT_LIMIT);
    return json(200, { entries: entries.map((e) => ({ ...e, at: new Date(e.at).toISOString() })) });
  };
}
