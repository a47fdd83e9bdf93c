/**
 * `converter-site-api feedback list|handle|unhandle`: the feedback inbox through the operator API
 * (docs/operating.md), from OPERATOR_URL with OPERATOR_TOKEN. A table for people, `--json` for scripts.
 *
 * @module
 */
import { EXIT, parseCommandLine, UsageError, type Command, type Io } from './command.ts';
import type * as v from 'valibot';
import { listFeedback, markFeedbackHandled, type InboxEntrySchema } from '../../core/operator/inbox.ts';
import { callOperator, OPERATOR_HELP_FOOTER, prepare, printAnswer } from './operator-api.ts';

const HELP = `usage: converter-site-api feedback <list|handle|unhandle> [options]

Reads and triages the feedback and reviews of a running server, through its operator API (OPERATOR_URL,
e.g. http://127.0.0.1:8081, and OPERATOR_TOKEN).

  feedback list [--type <t>] [--rating <1-5>] [--since <ISO 8601>] [--handled <true|false>] [--limit <n>] [--before <id>]
                             newest first; types: feature_request, bug_report, general, review
  feedback handle <id>       mark an entry handled
  feedback unhandle <id>     mark it not handled again

For every entry as CSV or JSON: converter-site-api export feedback.

${OPERATOR_HELP_FOOTER}`;

type EntryView = v.InferOutput<typeof InboxEntrySchema>;

const FLAGS = {
  json: { type: 'boolean' },
  type: { type: 'string' },
  rating: { type: 'string' },
  since: { type: 'string' },
  handled: { type: 'string' },
  limit: { type: 'string' },
  before: { type: 'string' },
} as const;

/** One line of a description for the table: no line breaks, at most 60 characters. */
const excerpt = (text: string) => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
};

const rowsOf = (entries: readonly EntryView[]): string[][] => [
  ['ID', 'RECEIVED', 'TYPE', 'RATING', 'HANDLED', 'EMAIL', 'DESCRIPTION'],
  ...entries.map((e) => [String(e.id), e.receivedAt, e.type, e.rating === null ? '-' : String(e.rating), e.handledAt ? 'yes' : 'no', e.email ?? '-', excerpt(e.description)]),
];

export const feedback: Command = {
  name: 'feedback',
  summary: 'list the feedback inbox, mark entries handled (operator API)',
  help: HELP,
  async run(args, io: Io) {
    const { values, positionals, help } = parseCommandLine(args, FLAGS, 2);
    if (help) {
      io.stdout(HELP);
      return EXIT.ok;
    }
    const [action = '', id] = positionals;
    const json = values.json === true;
    if (action === 'list') {
      if (id !== undefined) throw new UsageError(`unexpected argument ${JSON.stringify(id)}`);
      const { type, rating, since, handled, limit, before } = values;
      const answer = await callOperator('feedback', prepare(listFeedback, { query: { type, rating, since, handled, limit, before } }), io);
      return 'exit' in answer ? answer.exit : printAnswer(answer, json, io, (a) => rowsOf(a.entries));
    }
    if (action !== 'handle' && action !== 'unhandle') throw new UsageError('say what to do: list, handle or unhandle');
    if (id === undefined || !/^[1-9]\d{0,14}$/.test(id)) throw new UsageError(`feedback ${action} needs an entry id (a whole number from 1), not ${JSON.stringify(id ?? '')}`);
    const answer = await callOperator('feedback', prepare(markFeedbackHandled, { params: { id }, body: { handled: action === 'handle' } }), io);
    return 'exit' in answer ? answer.exit : printAnswer(answer, json, io, (entry) => rowsOf([entry]));
  },
};
