/**
 * `converter-site-api feedback list|handle|unhandle|link|unlink`: the feedback inbox through the operator API
 * (docs/operating.md), from OPERATOR_URL with OPERATOR_TOKEN. A table for people, `--json` for scripts.
 *
 * @module
 */
import { type Command, EXIT, type Io, parseCommandLine, UsageError } from './command.ts';
import type * as v from 'valibot';
import { BULK_HANDLED_MAX, type InboxEntrySchema, listFeedback, markFeedbackHandled, markFeedbackListHandled } from '../../core/operator/inbox.ts';
import { linkFeedbackFeature, linkFeedbackListFeature } from '../../core/operator/feedback-links.ts';
import { callOperator, OPERATOR_HELP_FOOTER, prepare, printAnswer } from './operator-api.ts';

const HELP = `usage: converter-site-api feedback <list|handle|unhandle|link|unlink> [options]

Reads and triages the feedback and reviews of a running server, through its operator API (OPERATOR_URL,
e.g. http://127.0.0.1:8081, and OPERATOR_TOKEN).

  feedback list [--type <t>] [--rating <1-5>] [--since <ISO 8601>] [--handled <true|false>] [--search <text>]
                [--limit <n>] [--before <id>]
                             newest first; types: feature_request, bug_report, general, review;
                             --search: text in the description or the email, any case
  feedback handle <id> [<id>...]
                             mark entries handled (several ids: one bulk mark, one audit row, at most ${BULK_HANDLED_MAX})
  feedback handle --all [--type <t>] [--rating <1-5>] [--since <ISO 8601>] [--search <text>] [--limit <n>]
                             mark handled every entry \`feedback list --handled false\` shows with those filters
                             (the newest 50, or --limit up to ${BULK_HANDLED_MAX}): one bulk mark
  feedback unhandle <id>     mark it not handled again
  feedback link <id> [<id>...] --feature <n>
                             link entries to the roadmap feature they ask for (several: one bulk link, one audit row);
                             the roadmap lists each feature's linked requests, told by mail when it ships
  feedback unlink <id> [<id>...]
                             take their links away

For every entry as CSV or JSON: converter-site-api export feedback.

${OPERATOR_HELP_FOOTER}`;

type EntryView = v.InferOutput<typeof InboxEntrySchema> & { featureId?: number | null };

const FLAGS = {
  json: { type: 'boolean' },
  type: { type: 'string' },
  rating: { type: 'string' },
  since: { type: 'string' },
  handled: { type: 'string' },
  limit: { type: 'string' },
  before: { type: 'string' },
  search: { type: 'string' },
  all: { type: 'boolean' },
  feature: { type: 'string' },
} as const;

/** One line of a description for the table: no line breaks, at most 60 characters. */
const excerpt = (text: string) => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
};

const rowsOf = (entries: readonly EntryView[]): string[][] => [
  ['ID', 'RECEIVED', 'TYPE', 'RATING', 'HANDLED', 'FEATURE', 'EMAIL', 'DESCRIPTION'],
  ...entries.map((
    e,
  ) => [
    String(e.id),
    e.receivedAt,
    e.type,
    e.rating === null ? '-' : String(e.rating),
    e.handledAt ? 'yes' : 'no',
    e.featureId ? `#${e.featureId}` : '-',
    e.email ?? '-',
    excerpt(e.description),
  ]),
];

/** Marks the listed entries handled in one bulk mark, and says how many. */
async function markListed(ids: readonly string[], json: boolean, io: Io): Promise<number> {
  const answer = await callOperator('feedback', prepare(markFeedbackListHandled, { body: { ids: ids.map(Number) } }), io);
  if ('exit' in answer) return answer.exit;
  const { marked, alreadyHandled, notFound } = answer.value;
  io.stdout(
    json
      ? `${answer.text.trimEnd()}\n`
      : `marked ${marked.length} handled${marked.length ? `: ${marked.join(', ')}` : ''}; ${alreadyHandled} handled already, ${notFound} not found\n`,
  );
  return EXIT.ok;
}

/** Links the listed entries to a feature (null: unlinks them): one call for one id, one bulk link for several. */
async function linkListed(ids: readonly string[], featureId: number | null, json: boolean, io: Io): Promise<number> {
  const to = featureId === null ? 'unlinked' : `linked to feature ${featureId}`;
  if (ids.length === 1) {
    const answer = await callOperator('feedback', prepare(linkFeedbackFeature, { params: { id: ids[0]! }, body: { featureId } }), io);
    if ('exit' in answer) return answer.exit;
    io.stdout(json ? `${answer.text.trimEnd()}\n` : `${answer.value.id} ${to}${answer.value.changed ? '' : ' already'}\n`);
    return EXIT.ok;
  }
  const answer = await callOperator('feedback', prepare(linkFeedbackListFeature, { body: { ids: ids.map(Number), featureId } }), io);
  if ('exit' in answer) return answer.exit;
  const { linked, unchanged, notFound } = answer.value;
  io.stdout(
    json
      ? `${answer.text.trimEnd()}\n`
      : `${linked.length} ${to}${linked.length ? `: ${linked.join(', ')}` : ''}; ${unchanged} so already, ${notFound} not found\n`,
  );
  return EXIT.ok;
}

export const feedback: Command = {
  name: 'feedback',
  summary: 'list the feedback inbox, mark entries handled (operator API)',
  help: HELP,
  async run(args, io: Io) {
    const { values, positionals } = parseCommandLine(args, FLAGS, 1 + BULK_HANDLED_MAX);
    const [action = '', id, ...more] = positionals;
    const json = values.json === true;
    const { type, rating, since, handled, limit, before, search } = values;
    if (values.all === true && action !== 'handle') throw new UsageError('--all is an option of feedback handle only');
    if (action === 'list') {
      if (id !== undefined) throw new UsageError(`unexpected argument ${JSON.stringify(id)}`);
      const answer = await callOperator('feedback', prepare(listFeedback, { query: { type, rating, since, handled, limit, before, search } }), io);
      return 'exit' in answer ? answer.exit : printAnswer(answer, json, io, (a) => rowsOf(a.entries));
    }
    if (values.feature !== undefined && action !== 'link') throw new UsageError('--feature is an option of feedback link only');
    if (action === 'link' || action === 'unlink') {
      const ids = id === undefined ? [] : [id, ...more];
      if (ids.length === 0) throw new UsageError(`feedback ${action} needs entry ids`);
      for (const given of ids) {
        if (!/^[1-9]\d{0,14}$/.test(given)) throw new UsageError(`feedback ${action} needs entry ids (whole numbers from 1), not ${JSON.stringify(given)}`);
      }
      if (action === 'unlink') return linkListed(ids, null, json, io);
      if (values.feature === undefined || !/^[1-9]\d{0,9}$/.test(values.feature)) {
        throw new UsageError('feedback link needs --feature <id> (a roadmap feature id)');
      }
      return linkListed(ids, Number(values.feature), json, io);
    }
    if (action !== 'handle' && action !== 'unhandle') throw new UsageError('say what to do: list, handle, unhandle, link or unlink');
    if (action === 'handle' && values.all === true) {
      if (id !== undefined) throw new UsageError('give entry ids or --all, not both');
      if (handled !== undefined || before !== undefined) {
        throw new UsageError('feedback handle --all marks the entries not handled yet, newest first: no --handled or --before');
      }
      const listed = await callOperator('feedback', prepare(listFeedback, { query: { type, rating, since, limit, search, handled: 'false' } }), io);
      if ('exit' in listed) return listed.exit;
      if (listed.value.entries.length === 0) {
        io.stdout(json ? '{"marked":[],"alreadyHandled":0,"notFound":0}\n' : 'no entry to mark\n');
        return EXIT.ok;
      }
      return markListed(listed.value.entries.map((e) => String(e.id)), json, io);
    }
    const ids = id === undefined ? [''] : [id, ...more];
    for (const given of ids) {
      if (!/^[1-9]\d{0,14}$/.test(given)) throw new UsageError(`feedback ${action} needs an entry id (a whole number from 1), not ${JSON.stringify(given)}`);
    }
    if (id === undefined) return EXIT.usage;
    if (more.length > 0 && action === 'unhandle') throw new UsageError('feedback unhandle takes one entry id');
    if (more.length > 0) return markListed(ids, json, io);
    const answer = await callOperator('feedback', prepare(markFeedbackHandled, { params: { id }, body: { handled: action === 'handle' } }), io);
    return 'exit' in answer ? answer.exit : printAnswer(answer, json, io, (entry) => rowsOf([entry]));
  },
};
