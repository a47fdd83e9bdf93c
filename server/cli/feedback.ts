/**
 * `converter-site-api feedback list|handle|unhandle`: the feedback inbox through the operator API
 * (docs/operating.md), from OPERATOR_URL with OPERATOR_TOKEN. A table for people, `--json` for scripts.
 *
 * @module
 */
import { EXIT, parseCommandLine, UsageError, type Command, type Io } from './command.ts';
import { callOperator, OPERATOR_HELP_FOOTER, type OperatorCall, printAnswer } from './operator-api.ts';

const HELP = `usage: converter-site-api feedback <list|handle|unhandle> [options]

Reads and triages the feedback and reviews of a running server, through its operator API (OPERATOR_URL,
e.g. http://127.0.0.1:8081, and OPERATOR_TOKEN).

  feedback list [--type <t>] [--rating <1-5>] [--since <ISO 8601>] [--handled <true|false>] [--limit <n>] [--before <id>]
                             newest first; types: feature_request, bug_report, general, review
  feedback handle <id>       mark an entry handled
  feedback unhandle <id>     mark it not handled again

For every entry as CSV or JSON: converter-site-api export feedback.

${OPERATOR_HELP_FOOTER}`;

interface EntryView {
  id: number;
  type: string;
  rating: number | null;
  receivedAt: string;
  handledAt: string | null;
  email: string | null;
  description: string;
}

const FILTERS = ['type', 'rating', 'since', 'handled', 'limit', 'before'] as const;

/** One line of a description for the table: no line breaks, at most 60 characters. */
const excerpt = (text: string) => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
};

const rowsOf = (entries: EntryView[]): string[][] => [
  ['ID', 'RECEIVED', 'TYPE', 'RATING', 'HANDLED', 'EMAIL', 'DESCRIPTION'],
  ...entries.map((e) => [String(e.id), e.receivedAt, e.type, e.rating === null ? '-' : String(e.rating), e.handledAt ? 'yes' : 'no', e.email ?? '-', excerpt(e.description)]),
];

function callFor(action: string, id: string | undefined, values: Record<string, string | boolean | undefined>): OperatorCall {
  if (action === 'list') {
    if (id !== undefined) throw new UsageError(`unexpected argument ${JSON.stringify(id)}`);
    const query = new URLSearchParams();
    for (const name of FILTERS) if (typeof values[name] === 'string') query.set(name, values[name]);
    const text = query.toString();
    return { method: 'GET', path: `/feedback${text ? `?${text}` : ''}` };
  }
  if (action !== 'handle' && action !== 'unhandle') throw new UsageError('say what to do: list, handle or unhandle');
  if (id === undefined || !/^[1-9]\d{0,14}$/.test(id)) throw new UsageError(`feedback ${action} needs an entry id (a whole number from 1), not ${JSON.stringify(id ?? '')}`);
  return { method: 'POST', path: `/feedback/${id}/handled`, body: { handled: action === 'handle' } };
}

export const feedback: Command = {
  name: 'feedback',
  summary: 'list the feedback inbox, mark entries handled (operator API)',
  help: HELP,
  async run(args, io: Io) {
    const options = Object.fromEntries(FILTERS.map((name) => [name, { type: 'string' as const }]));
    const { values, positionals, help } = parseCommandLine(args, { json: { type: 'boolean' }, ...options }, 2);
    if (help) {
      io.stdout(HELP);
      return EXIT.ok;
    }
    const [action = '', id] = positionals;
    const answer = await callOperator('feedback', callFor(action, id, values), io);
    if ('exit' in answer) return answer.exit;
    return printAnswer<{ entries?: EntryView[]; next?: number | null } & EntryView>(answer.text, values['json'] === true, io, (a) => rowsOf(a.entries ?? [a]));
  },
};
