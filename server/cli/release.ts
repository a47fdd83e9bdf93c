/**
 * `converter-site-api release list|publish|widen|pull`: the operator API's releases (docs/operating.md),
 * from OPERATOR_URL with OPERATOR_TOKEN. A table for people, `--json` for scripts.
 *
 * @module
 */
import { EXIT, parseCommandLine, UsageError, type Command, type Io } from './command.ts';
import { listReleases, publishRelease, pullRelease, setReleaseRollout, type ReleaseJson } from '../../core/operator/releases.ts';
import { callOperator, OPERATOR_HELP_FOOTER, prepare, printAnswer } from './operator-api.ts';

const HELP = `usage: converter-site-api release <list|publish|widen|pull> [options]

Manages the desktop releases GET /api/v1/version and GET /api/v1/download serve, through the operator
API of a running server (OPERATOR_URL, e.g. http://127.0.0.1:8081, and OPERATOR_TOKEN).

  release list                                         every release, newest first
  release publish <version> --msi <url> [--notes <url>] [--percent <0-100>]
                                                       a new release, to a share of clients (100 by default)
  release widen <version> --percent <0-100>            change the share of clients it is served to
  release pull <version>                               never serve it again; the release before is served

${OPERATOR_HELP_FOOTER}`;

const rowsOf = (releases: readonly ReleaseJson[]): string[][] => [
  ['VERSION', 'ROLLOUT', 'STATE', 'PUBLISHED', 'MSI'],
  ...releases.map((r) => [r.version, `${r.rolloutPercent}%`, r.pulledAt ? 'pulled' : 'live', r.publishedAt, r.msiUrl]),
];

function percentOf(text: string | undefined, fallback?: number): number {
  if (text === undefined && fallback !== undefined) return fallback;
  if (text === undefined || !/^\d{1,3}$/.test(text) || Number(text) > 100) throw new UsageError(`--percent must be a whole number from 0 to 100, not ${JSON.stringify(text ?? '')}`);
  return Number(text);
}

export const release: Command = {
  name: 'release',
  summary: 'publish, widen, pull and list desktop releases (operator API)',
  help: HELP,
  async run(args, io: Io) {
    const { values, positionals, help } = parseCommandLine(
      args,
      { json: { type: 'boolean' }, msi: { type: 'string' }, notes: { type: 'string' }, percent: { type: 'string' } },
      2,
    );
    if (help) {
      io.stdout(HELP);
      return EXIT.ok;
    }
    const [action, version] = positionals;
    const needsVersion = action === 'publish' || action === 'widen' || action === 'pull';
    if (!action || !['list', 'publish', 'widen', 'pull'].includes(action)) throw new UsageError(`say what to do: list, publish, widen or pull`);
    if (needsVersion && !version) throw new UsageError(`release ${action} needs a version`);
    if (action === 'list' && version) throw new UsageError(`unexpected argument ${JSON.stringify(version)}`);
    const msiUrl = values['msi'];
    if (action === 'publish' && !msiUrl) throw new UsageError('release publish needs --msi <url>');
    const json = values['json'] === true;
    if (action === 'list') {
      const answer = await callOperator('release', prepare(listReleases), io);
      return 'exit' in answer ? answer.exit : printAnswer(answer, json, io, (a) => rowsOf(a.releases));
    }
    const call =
      action === 'publish'
        ? prepare(publishRelease, { body: { version: version!, msiUrl: msiUrl!, notesUrl: values['notes'] ?? null, rolloutPercent: percentOf(values['percent'], 100) } })
        : action === 'widen'
          ? prepare(setReleaseRollout, { params: { version: version! }, body: { rolloutPercent: percentOf(values['percent']) } })
          : prepare(pullRelease, { params: { version: version! } });
    const answer = await callOperator('release', call, io);
    return 'exit' in answer ? answer.exit : printAnswer(answer, json, io, (r) => rowsOf([r]));
  },
};
