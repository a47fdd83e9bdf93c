/**
 * `converter-site-api roadmap list|add|edit|hide|show|merge|unmerge`: the public roadmap's features through the
 * operator API (docs/operating.md), from OPERATOR_URL with OPERATOR_TOKEN. A table for people, `--json`
 * for scripts.
 *
 * @module
 */
import { type Command, EXIT, type FlagValues, type Io, parseCommandLine, UsageError } from './command.ts';
import type * as v from 'valibot';
import {
  createRoadmapFeature,
  editRoadmapFeature,
  listRoadmapFeatures,
  mergeRoadmapFeature,
  ROADMAP_SORTS,
  type StoredFeatureSchema,
} from '../../core/operator/roadmap.ts';
import { unmergeRoadmapFeature } from '../../core/operator/roadmap-unmerge.ts';
import { setRequesterMails } from '../../core/operator/requester-mails.ts';
import { callOperator, OPERATOR_HELP_FOOTER, prepare, printAnswer } from './operator-api.ts';

const HELP = `usage: converter-site-api roadmap <list|add|edit|hide|show|merge|unmerge|requester-mails> [options]

Edits the features GET /api/v1/roadmap lists and takes votes for, through the operator API of a running
server (OPERATOR_URL, e.g. http://127.0.0.1:8081, and OPERATOR_TOKEN). Each change is served at once.

  roadmap list [--sort id|votes]                every feature, hidden ones too, with its votes: in id order,
                                                or with --sort votes most votes first
  roadmap add --title <text> --category <c> [--description <text>] [--release <version>] [--hidden]
                                                a new feature, with the next free id
  roadmap edit <id> [--title <text>] [--description <text>] [--category <c>] [--release <version|none>]
                                                change what is given; --release marks it shipped in a version
  roadmap hide <id>                             take it off the public roadmap (its votes stay)
  roadmap show <id>                             put it back
  roadmap merge <id> --into <id>                a duplicate: its votes move to the other (one per voter), it is hidden
  roadmap unmerge <id>                          undo a merge: shown again, the votes that came from it go back
                                                (merges made before migration 29 cannot be undone)
  roadmap requester-mails <id> on|off           whether its linked requesters are told when it ships (on by default)

${OPERATOR_HELP_FOOTER}`;

type FeatureView = v.InferOutput<typeof StoredFeatureSchema>;

const FLAGS = {
  json: { type: 'boolean' },
  title: { type: 'string' },
  description: { type: 'string' },
  category: { type: 'string' },
  release: { type: 'string' },
  hidden: { type: 'boolean' },
  into: { type: 'string' },
  sort: { type: 'string' },
} as const;
type Values = FlagValues<typeof FLAGS>;

const ACTIONS = ['list', 'add', 'edit', 'hide', 'show', 'merge', 'unmerge', 'requester-mails'];

const rowsOf = (features: readonly FeatureView[]): string[][] => [
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
  if (text === undefined || !/^[1-9]\d{0,9}$/.test(text)) {
    throw new UsageError(`${what} must be a feature id (a whole number from 1), not ${JSON.stringify(text ?? '')}`);
  }
  return Number(text);
}

/** The fields --title, --description, --category and --release give (the API checks them). */
function fieldsOf(values: Values) {
  const { title, description, category, release } = values;
  const fields = { title, description, category, release_version: release === undefined ? undefined : release === 'none' ? null : release };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

/** Sends what an action asks for; every mistake in the command line is a UsageError. */
async function send(action: string, id: string | undefined, values: Values, io: Io, switchTo?: string): Promise<number> {
  const json = values.json === true;
  if (action === 'list') {
    if (id !== undefined) throw new UsageError(`unexpected argument ${JSON.stringify(id)}`);
    const sort = ROADMAP_SORTS.find((name) => name === (values.sort ?? 'id'));
    if (!sort) throw new UsageError(`--sort must be ${ROADMAP_SORTS.join(' or ')}, not ${JSON.stringify(values.sort)}`);
    const answer = await callOperator('roadmap', prepare(listRoadmapFeatures, { query: { sort } }), io);
    return 'exit' in answer ? answer.exit : printAnswer(answer, json, io, (a) => rowsOf(a.features));
  }
  if (action === 'add') {
    if (id !== undefined) throw new UsageError('roadmap add takes no id: the feature gets the next free one');
    const { title, category } = values;
    if (title === undefined || category === undefined) throw new UsageError('roadmap add needs --title and --category');
    const body = { ...fieldsOf(values), title, category, visible: values.hidden !== true };
    const answer = await callOperator('roadmap', prepare(createRoadmapFeature, { body }), io);
    return 'exit' in answer ? answer.exit : printAnswer(answer, json, io, (f) => rowsOf([f]));
  }
  const feature = String(idOf(id, `roadmap ${action}'s first argument`));
  if (action === 'merge') {
    const answer = await callOperator('roadmap', prepare(mergeRoadmapFeature, { params: { id: feature }, body: { into: idOf(values.into, '--into') } }), io);
    return 'exit' in answer ? answer.exit : printAnswer(answer, json, io, (a) => rowsOf([a.into, a.merged]));
  }
  if (action === 'requester-mails') {
    if (switchTo !== 'on' && switchTo !== 'off') throw new UsageError('roadmap requester-mails needs on or off after the id');
    const answer = await callOperator('roadmap', prepare(setRequesterMails, { params: { id: feature }, body: { enabled: switchTo === 'on' } }), io);
    if ('exit' in answer) return answer.exit;
    io.stdout(json ? `${answer.text.trimEnd()}\n` : `feature ${feature}: requesters ${answer.value.enabled ? 'are' : 'are not'} told when it ships\n`);
    return EXIT.ok;
  }
  if (action === 'unmerge') {
    const answer = await callOperator('roadmap', prepare(unmergeRoadmapFeature, { params: { id: feature } }), io);
    return 'exit' in answer ? answer.exit : printAnswer(answer, json, io, (a) => rowsOf([a.shown, a.from]));
  }
  const body = action === 'edit' ? fieldsOf(values) : { visible: action === 'show' };
  if (Object.keys(body).length === 0) throw new UsageError('roadmap edit needs at least one of --title, --description, --category, --release');
  const answer = await callOperator('roadmap', prepare(editRoadmapFeature, { params: { id: feature }, body }), io);
  return 'exit' in answer ? answer.exit : printAnswer(answer, json, io, (f) => rowsOf([f]));
}

export const roadmap: Command = {
  name: 'roadmap',
  summary: 'add, edit, hide, show, merge and unmerge roadmap features, switch their requester mails (operator API)',
  help: HELP,
  async run(args, io: Io) {
    const { values, positionals } = parseCommandLine(args, FLAGS, 3);
    const [action, id, switchTo] = positionals;
    if (!action || !ACTIONS.includes(action)) throw new UsageError('say what to do: list, add, edit, hide, show, merge, unmerge or requester-mails');
    if (switchTo !== undefined && action !== 'requester-mails') throw new UsageError(`unexpected argument ${JSON.stringify(switchTo)}`);
    return send(action, id, values, io, switchTo);
  },
};
