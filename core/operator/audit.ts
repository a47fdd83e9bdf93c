/**
 * GET /audit: the trail of changes made through the operator API.
 *
 * @module
 */
import * as v from 'valibot';
import { IsoTime } from './json-views.ts';
import { defineOperation } from './operation.ts';

/** How many audit entries GET /audit shows. */
export const AUDIT_LIMIT = 200;

/** One change: when, what, to what, and the request id of its log lines. */
export const AuditEntrySchema = v.object({ at: IsoTime, action: v.string(), target: v.string(), requestId: v.string() });

export const listAudit = defineOperation({
  operationId: 'listAudit',
  method: 'GET',
  path: '/audit',
  summary: `The latest ${AUDIT_LIMIT} changes made through the operator API, newest first.`,
  output: v.object({ entries: v.array(AuditEntrySchema) }),
  status: 200,
  errors: [],
  async run(context) {
    const entries = await context.storage.audit.list(AUDIT_LIMIT);
    return { entries: entries.map((e) => ({ ...e, at: new Date(e.at).toISOString() })) };
  },
});
