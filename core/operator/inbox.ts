/**
 * The feedback inbox: the stored feedback and reviews, newest first, with filters and a handled mark,
 * read through the running server on every storage (the default PGlite deployment included).
 *
 * @module
 */
import * as v from 'valibot';
import { readJsonObject } from '../body.ts';
import { json, type CoreRequest } from '../http.ts';
import { FEEDBACK_TYPES } from '../port-types.ts';

import type { InboxEntry } from '../store-ports.ts';

export type { FeedbackInbox, InboxEntry, InboxFilter } from '../store-ports.ts';
import { parseOrThrow } from '../validate.ts';
import type { OperatorContext, OperatorHandler } from './context.ts';
import { OperatorError } from './errors.ts';

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 500;

const Digits = v.pipe(v.string(), v.regex(/^\d{1,15}$/, 'must be a whole number'), v.transform(Number));
export const InboxQuerySchema = v.strictObject({
  type: v.optional(v.picklist(FEEDBACK_TYPES, `must be one of ${FEEDBACK_TYPES.join(', ')}`)),
  rating: v.optional(v.pipe(v.string(), v.regex(/^[1-5]$/, 'must be 1 to 5'), v.transform(Number))),
  since: v.optional(v.pipe(v.string(), v.isoTimestamp('must be an ISO 8601 timestamp such as 2026-11-01T00:00:00Z'), v.transform(Date.parse))),
  handled: v.optional(v.pipe(v.picklist(['true', 'false'], 'must be true or false'), v.transform((text) => text === 'true'))),
  before: v.optional(Digits),
  limit: v.optional(v.pipe(Digits, v.minValue(1), v.maxValue(MAX_LIMIT))),
});

export const HandledSchema = v.strictObject({ handled: v.boolean() });

const view = (e: InboxEntry) => ({
  id: e.id,
  type: e.type,
  description: e.description,
  email: e.email,
  appVersion: e.appVersion,
  rating: e.rating,
  receivedAt: new Date(e.receivedAt).toISOString(),
  handledAt: e.handledAt === null ? null : new Date(e.handledAt).toISOString(),
});

/** The query string as an object of single values; a repeated parameter is refused. */
export function queryOf(request: CoreRequest): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(request.query ?? '')) {
    if (name in query) throw new OperatorError('invalid_query', `Query parameter "${name}" is given more than once.`);
    query[name] = value;
  }
  return query;
}

export function listInbox(context: OperatorContext): OperatorHandler {
  return async (request) => {
    const filter = parseOrThrow(InboxQuerySchema, queryOf(request));
    const limit = filter.limit ?? DEFAULT_LIMIT;
    const entries = await context.storage.inbox.list({ ...filter, limit });
    // The next page starts below the last id shown, while a page came back full.
    const next = entries.length === limit ? entries[entries.length - 1]!.id : null;
    return json(200, { entries: entries.map(view), next });
  };
}

export function markHandled(context: OperatorContext): OperatorHandler {
  return async (request, params) => {
    const id = Number(params['id']);
    const { handled } = parseOrThrow(HandledSchema, readJsonObject(request, context.bodyLimit, true));
    const entry = Number.isSafeInteger(id) && id > 0 ? await context.storage.inbox.setHandled(id, handled, context.clock.now()) : null;
    if (!entry) throw new OperatorError('feedback_not_found', `No feedback has id ${JSON.stringify(params['id'])}.`);
    const action = handled ? 'feedback.handled' : 'feedback.unhandled';
    await context.storage.audit.record({ at: context.clock.now(), action, target: String(id), requestId: request.requestId ?? '' });
    context.logger.info('operator change', { action, target: String(id), requestId: request.requestId });
    return json(200, view(entry));
  };
}
