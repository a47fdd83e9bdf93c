/**
 * GET /audit: the trail of changes made through the operator API, newest first, in pages, filtered by who
 * made them (the operator's name), the action's beginning and the target's text.
 *
 * @module
 */
import * as v from 'valibot';
import type { AuditRow } from '../ports/store-ports.ts';
import { IsoTime, NextCursor, nextOf, QueryDigits } from './json-views.ts';
import { OPERATOR_NAME_PATTERN, OPERATOR_NAME_RULE } from './named-tokens.ts';
import { defineOperation } from './operation.ts';

/** The most audit entries one page of GET /audit holds, and how many it holds without `limit`. */
export const AUDIT_LIMIT = 200;

/** Text of a filter: 1 to `max` characters, none of them a control character. */
const filterText = (max: number) =>
  v.pipe(
    v.string(),
    v.minLength(1, 'must not be empty'),
    v.maxLength(max, `must be at most ${max} characters`),
    v.regex(/^[^\p{Cc}]*$/u, 'must not hold control characters'),
  );

export const AuditQuerySchema = v.strictObject({
  actor: v.optional(v.pipe(v.string(), v.regex(OPERATOR_NAME_PATTERN, `must be an operator's name: ${OPERATOR_NAME_RULE}`))),
  action: v.optional(filterText(64)),
  target: v.optional(filterText(200)),
  before: v.optional(QueryDigits),
  limit: v.optional(v.pipe(QueryDigits, v.minValue(1, 'must be at least 1'), v.maxValue(AUDIT_LIMIT, `must be at most ${AUDIT_LIMIT}`))),
});

/** One change: its id, when, who, what, to what, and the request id of its log lines. */
export const AuditEntrySchema = v.object({
  id: v.number(),
  at: IsoTime,
  actor: v.pipe(
    v.nullable(v.string()),
    v.description(
      "The operator's name (`operator` for OPERATOR_TOKEN); null for a change no operator made (a refund or dispute the payment provider reported, the halt rule's halt), or one recorded before names were.",
    ),
  ),
  action: v.string(),
  target: v.string(),
  requestId: v.string(),
});

const view = (row: AuditRow): v.InferOutput<typeof AuditEntrySchema> => ({
  id: row.id,
  at: new Date(row.at).toISOString(),
  actor: row.actor,
  action: row.action,
  target: row.target,
  requestId: row.requestId,
});

export const listAudit = defineOperation({
  operationId: 'listAudit',
  method: 'GET',
  path: '/audit',
  summary: "The changes made through the operator API, newest first: filters actor (an operator's name), action (its beginning, e.g. release.), " +
    `target (text it contains); limit (1-${AUDIT_LIMIT}, ${AUDIT_LIMIT} by default) and before (the next of the page before).`,
  query: AuditQuerySchema,
  output: v.object({ entries: v.array(AuditEntrySchema), next: NextCursor }),
  status: 200,
  errors: ['invalid_query'],
  async run(context, { query }) {
    const limit = query.limit ?? AUDIT_LIMIT;
    const rows = await context.storage.audit.list({ ...query, limit });
    return { entries: rows.map(view), next: nextOf(rows, limit) };
  },
});
