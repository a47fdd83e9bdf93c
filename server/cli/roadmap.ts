/**
 * `converter-site-api roadmap list|add|edit|hide|show|merge`: the public roadmap's features through the
 * operator API (docs/operating.md), from OPERATOR_URL with OPERATOR_TOKEN. A table for people, `--json`
 * for scripts.
 *
 * @module
 */
import { EXIT, parseCommandLine, UsageError, type Command, type Io } from './command.ts';
import { callOperator, OPERATOR_HELP_FOOTER, type OperatorCall, printAnswer } from './operator-api.ts';

const HELP = `usage: converter-site-api roadmap <list|add|edit|hide|show|merge> [options]

Edits the features GET /api/v1/roadmap lists and takes votes for, through the operator API of a running
server (OPERATOR_URL, e.g. http://127.0.0.1:8081, and OPERATOR_TOKEN). Each change is served at once.

  roadmap list                                  every feature, hidden ones too, with its votes
  roadmap add --title <text> --category <c> [--description <text>] [--release <version>] [--hidden]
                                                a new feature, with the next free id
  roadmap edit <id> [--title <text>] [--description <text>] [--category <c>] [--release <version|none>]
                                                change what is given; --release marks it shipped in a version
  roadmap hide <id>                             take it off the public roadmap (its votes stay)
  roadmap show <id>                             put it back
  roadmap merge <id> --into <id>                a duplicate: its votes move to the other (one per voter), it is hidden

${OPERATOR_HELP_FOOTER}`;

interface FeatureView {
  id: number;
  title: string;
  category: string;
  visible: boolean;
  release_version: string | null;
  vote_count: number;
  merged_into: number | null;
}

const ACTIONS = ['list', 'add', 'edit', 'hide', 'show', 'merge'];

const rowsOf = (features: FeatureView[]): string[][] => [
  ['ID', 'VOTES', 'STATE', 'RELEASE', 'CATEGORY', 'TITLE'],
  ...features.map((f) => [
    String(f.id),
    String(f.vote_count),
    f.merged_into !== null ? `merged into ${f.merged_into}` : f.visible ? 'shown' : 'hidden',
    f.release_version ?? '-',
    f.category,
    f.title,
  ]),
];

function idOf(text: string | undefined, what: string): number {
  if (text === undefined || !/^[1-9]\d{0,9}$/.test(text)) throw new UsageError(`${what} must be a feature id (a whole number from 1), not ${JSON.stringify(text ?? '')}`);
  return Number(text);
}

/** The fields --title, --description, --category and --release give. */
function fieldsOf(values: Record<string, string | boolean | undefined>): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const name of ['title', 'description', 'category'] as const) if (typeof values[name] === 'string') fields[name] = values[name];
  if (typeof values['release'] === 'string') fields['release_version'] = values['release'] === 'none' ? null : values['release'];
  return fields;
}

/** The operator API call an action makes. */
function callFor(action: string, id: string | undefined, values: Record<string, string | boolean | undefined>): OperatorCall {
  if (action === 'list') {
    if (id !== undefined) throw new UsageError(`unexpected argument ${JSON.stringify(id)}`);
    return { method: 'GET', path: '/roadmap' };
  }
  if (action === 'add') {
    if (id !== undefined) throw new UsageError('roadmap add takes no id: the feature gets the next free one');
    if (typeof values['title'] !== 'string' || typeof values['category'] !== 'string') throw new UsageError('roadmap add needs --title and --category');
    return { method: 'POST', path: '/roadmap', body: { ...fieldsOf(values), visible: values['hidden'] !== true } };
  }
  const feature = idOf(id, `roadmap ${action}'s first argument`);
  if (action === 'merge') return { method: 'POST', path: `/roadmap/${feature}/merge`, body: { into: idOf(values['into'] as string | undefined, '--into') } };
  const body = action === 'edit' ? fieldsOf(values) : { visible: action === 'show' };
  if (Object.keys(body).length === 0) throw new UsageError('roadmap edit needs at least one of --title, --description, --category, --release');
  return { method: 'PATCH', path: `/roadmap/${feature}`, body };
}

export const roadmap: Command = {
  name: 'roadmap',
  summary: 'add, edit, hide, show and merge roadmap features (operator API)',
  help: HELP,
  async run(args, io: Io) {
    const { values, positionals, help } = parseCommandLine(
      args,
      {
        json: { type: 'boolean' },
        title: { type: 'string' },
        description: { type: 'string' },
        category: { type: 'string' },
        release: { type: 'string' },
        hidden: { type: 'boolean' },
        into: { type: 'string' },
      },
      2,
    );
    if (help) {
      io.stdout(HELP);
      return EXIT.ok;
    }
    const [action, id] = positionals;
    if (!action || !ACTIONS.includes(action)) throw new UsageError('say what to do: list, add, edit, hide, show or merge');
    const answer = await callOperator('roadmap', callFor(action, id, values), io);
    if ('exit' in answer) return answer.exit;
    type Answer = { features?: FeatureView[]; merged?: FeatureView; into?: FeatureView } & FeatureView;
    return printAnswer<Answer>(answer.text, values['json'] === true, io, (a) => rowsOf(a.features ?? (a.merged ? [a.into!, a.merged] : [a])));
  },
};
