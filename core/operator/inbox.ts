/**
 * The feedback inbox: the stored feedback and reviews, newest first, with filters and a handled mark,
 * read through the running server on every storage (the default PGlite deployment included).
 *
 * @module
 */
import * as v from 'valibot';
import { FEEDBACK_TYPES } from '../ports/port-types.ts';
import type { InboxEntry } from '../ports/store-ports.ts';
import { operatorChange } from './context.ts';
import { OperatorError } from './errors.ts';
import { isoOrNull, IsoTime, NextCursor, nextOf, QueryDigits } from './json-views.ts';
import { defineOperation } from './operation.ts';

export type { FeedbackInbox, InboxEntry, InboxFilter } from '../ports/store-ports.ts';

const DEFAULT_LIMIT = 50;

/** The columns of a feedback export, in order: the Inbox page's CSV and `export feedback` alike. */
export const FEEDBACK_EXPORT_COLUMNS = ['id', 'receivedAt', 'type', 'rating', 'appVersion', 'email', 'description', 'handledAt'] as const;
const MAX_LIMIT = 500;

export const InboxQuerySchema = v.strictObject({
  type: v.optional(v.picklist(FEEDBACK_TYPES, `must be one of ${FEEDBACK_TYPES.join(', ')}`)),
  rating: v.optional(v.pipe(v.string(), v.regex(/^[1-5]$/, 'must be 1 to 5'), v.transform(Number))),
  since: v.optional(v.pipe(v.string(), v.isoTimestamp('must be an ISO 8601 timestamp such as 2026-11-01T00:00:00Z'), v.transform(Date.parse))),
  handled: v.optional(v.pipe(v.picklist(['true', 'false'], 'must be true or false'), v.transform((text) => text === 'true'))),
  search: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be blank'), v.maxLength(200, 'must be at most 200 characters'))),
  before: v.optional(QueryDigits),
  limit: v.optional(v.pipe(QueryDigits, v.minValue(1), v.maxValue(MAX_LIMIT))),
});

export const HandledSchema = v.strictObject({ handled: v.boolean() });

/** An inbox entry as the operator API shows it. */
export const InboxEntrySchema = v.object({
  id: v.number(),
  type: v.picklist(FEEDBACK_TYPES),
  description: v.string(),
  email: v.nullable(v.string()),
  appVersion: v.nullable(v.string()),
  rating: v.nullable(v.number()),
  receivedAt: IsoTime,
  handledAt: v.nullable(IsoTime),
});

/** A listed entry: with the roadmap feature it is linked to (feedback-links.ts), or null. */
export const ListedEntrySchema = v.object({ ...InboxEntrySchema.entries, featureId: v.nullable(v.number()) });

const view = (e: InboxEntry): v.InferOutput<typeof InboxEntrySchema> => ({
  id: e.id,
  type: e.type,
  description: e.description,
  email: e.email,
  appVersion: e.appVersion,
  rating: e.rating,
  receivedAt: new Date(e.receivedAt).toISOString(),
  handledAt: isoOrNull(e.handledAt),
});

export const listFeedback = defineOperation({
  operationId: 'listFeedback',
  method: 'GET',
  path: '/feedback',
  summary: 'The feedback inbox, newest first: filters type, rating (1-5), since (ISO 8601), handled (true|false), ' +
    'search (text found in the description or the email, any case); ' +
    'limit (1-500, 50 by default) and before (the next of the page before).',
  query: InboxQuerySchema,
  output: v.object({ entries: v.array(ListedEntrySchema), next: NextCursor }),
  status: 200,
  errors: ['invalid_query'],
  async run(context, { query }) {
    const limit = query.limit ?? DEFAULT_LIMIT;
    const entries = await context.storage.inbox.list({ ...query, limit });
    const links = new Map((await context.storage.links.linksOf(entries.map((e) => e.id))).map((link) => [link.feedbackId, link.featureId]));
    return { entries: entries.map((e) => ({ ...view(e), featureId: links.get(e.id) ?? null })), next: nextOf(entries, limit) };
  },
});

export const markFeedbackHandled = defineOperation({
  operationId: 'markFeedbackHandled',
  method: 'POST',
  path: '/feedback/:id/handled',
  summary: 'Mark an entry handled ({"handled": true}) or not ({"handled": false}); a repeated mark keeps the first ' +
    'handledAt and writes no audit row.',
  body: HandledSchema,
  output: InboxEntrySchema,
  status: 200,
  errors: ['feedback_not_found'],
  async run(context, { params, body }, caller) {
    const id = /^\d{1,15}$/.test(params.id) ? Number(params.id) : 0;
    const notFound = () => new OperatorError('feedback_not_found', `No feedback has id ${JSON.stringify(params.id)}.`);
    if (id === 0) throw notFound();
    const at = context.clock.now();
    return operatorChange(context, caller, async (tx) => {
      const done = await tx.inbox.setHandled(id, body.handled, at);
      if (!done) throw notFound();
      // A repeated mark changes nothing, so it leaves no audit row.
      return {
        result: view(done.entry),
        at,
        audit: done.changed ? { action: body.handled ? 'feedback.handled' : 'feedback.unhandled', target: String(id) } : null,
      };
    });
  },
});

/** The most entries one bulk mark takes: the most one page of the inbox lists. */
export const BULK_HANDLED_MAX = MAX_LIMIT;

export const BulkHandledSchema = v.strictObject({
  ids: v.pipe(
    v.array(v.pipe(v.number(), v.integer('must be whole numbers'), v.minValue(1, 'must be ids from 1'), v.maxValue(Number.MAX_SAFE_INTEGER))),
    v.minLength(1, 'must list at least one id'),
    v.maxLength(BULK_HANDLED_MAX, `must list at most ${BULK_HANDLED_MAX} ids`),
  ),
});

export const markFeedbackListHandled = defineOperation({
  operationId: 'markFeedbackListHandled',
  method: 'POST',
  path: '/feedback/handled',
  summary: `Mark the listed entries handled (ids, 1-${BULK_HANDLED_MAX}: those a list showed, so that entries that came since are ` +
    'not marked unseen); entries handled already keep their handledAt and are not counted; one audit row says how many were marked.',
  body: BulkHandledSchema,
  output: v.object({
    marked: v.pipe(v.array(v.number()), v.description('The ids marked now, ascending.')),
    alreadyHandled: v.number(),
    notFound: v.pipe(v.number(), v.description('Listed ids with no entry.')),
  }),
  status: 200,
  errors: [],
  async run(context, { body }, caller) {
    const listed = new Set(body.ids).size;
    const at = context.clock.now();
    return operatorChange(context, caller, async (tx) => {
      const { marked, found } = await tx.inbox.markHandled(body.ids, at);
      return {
        result: { marked, alreadyHandled: found - marked.length, notFound: listed - found },
        at,
        audit: marked.length === 0
          ? null
          : { action: 'feedback.handled_bulk', target: `${marked.length} ${marked.length === 1 ? 'entry' : 'entries'} (of ${listed} listed)` },
      };
    });
  },
});
