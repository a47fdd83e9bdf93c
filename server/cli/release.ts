/**
 * `converter-site-api release list|publish|widen|pull|restore`: the operator API's releases (docs/operating.md),
 * from OPERATOR_URL with OPERATOR_TOKEN. A table for people, `--json` for scripts.
 *
 * @module
 */
import { EXIT, parseCommandLine, UsageError, type Command, type Io } from './command.ts';
import { digestOfFile } from './msi-file.ts';
import { callOperator, OPERATOR_HELP_FOOTER, type OperatorCall, printAnswer } from './operator-api.ts';

const HELP = `usage: converter-site-api release <list|publish|widen|pull|restore> [options]

Manages the desktop releases GET /api/v1/version and GET /api/v1/download serve, through the operator
API of a running server (OPERATOR_URL, e.g. http://127.0.0.1:8081, and OPERATOR_TOKEN).

  release list                                         every release, highest version first, with the
                                                       share of clients each is served to now (SERVED)
  release publish <version> --msi <url> [--file <path.msi> | --sha256 <hex> --size <bytes>]
                  [--notes <url>] [--percent <0-100>] [--critical]
                                                       a new release above every published version, offered
                                                       to a share of clients (100 by default); --file
                                                       computes the MSI's SHA-256 and size from the local file
  release widen <version> --percent <0-100>            change the share of clients offered it or a newer one
  release pull <version>                               stop serving it; its clients get the next one below
  release restore <version>                            serve a pulled release again

A client is served the highest version whose percent is above its bucket (0-99): see docs/releases.md.

${OPERATOR_HELP_FOOTER}`;

interface ReleaseView {
  version: string;
  rolloutPercent: number;
  servedPercent: number;
  publishedAt: string;
  pulledAt: string | null;
  msiUrl: string;
}

const rowsOf = (releases: ReleaseView[]): string[][] => [
  ['VERSION', 'ROLLOUT', 'SERVED', 'STATE', 'PUBLISHED', 'MSI'],
  ...releases.map((r) => [r.version, `${r.rolloutPercent}%`, `${r.servedPercent}%`, r.pulledAt ? 'pulled' : 'live', r.publishedAt, r.msiUrl]),
];

function percentOf(text: string | undefined, fallback?: number): number {
  if (text === undefined && fallback !== undefined) return fallback;
  if (text === undefined || !/^\d{1,3}$/.test(text) || Number(text) > 100) throw new UsageError(`--percent must be a whole number from 0 to 100, not ${JSON.stringify(text ?? '')}`);
  return Number(text);
}

/** The MSI's digest and size: from --file, or as given by --sha256 and --size (the API checks them). */
async function integrityOf(values: Record<string, unknown>): Promise<{ sha256?: string; size?: number | string }> {
  const file = values['file'] as string | undefined;
  const sha256 = values['sha256'] as string | undefined;
  const size = values['size'] as string | undefined;
  if (file !== undefined) {
    if (sha256 !== undefined || size !== undefined) throw new UsageError('give --file, or --sha256 and --size, not both');
    try {
      return await digestOfFile(file);
    } catch (error) {
      throw new UsageError(`--file ${file} cannot be read (${(error as { code?: string }).code ?? String(error)})`);
    }
  }
  return {
    ...(sha256 === undefined ? {} : { sha256 }),
    ...(size === undefined ? {} : { size: /^\d{1,16}$/.test(size) ? Number(size) : size }),
  };
}

export const release: Command = {
  name: 'release',
  summary: 'publish, widen, pull, restore and list desktop releases (operator API)',
  help: HELP,
  async run(args, io: Io) {
    const { values, positionals, help } = parseCommandLine(
      args,
      {
        json: { type: 'boolean' },
        msi: { type: 'string' },
        notes: { type: 'string' },
        percent: { type: 'string' },
        file: { type: 'string' },
        sha256: { type: 'string' },
        size: { type: 'string' },
        critical: { type: 'boolean' },
      },
      2,
    );
    if (help) {
      io.stdout(HELP);
      return EXIT.ok;
    }
    const [action, version] = positionals;
    const needsVersion = action === 'publish' || action === 'widen' || action === 'pull' || action === 'restore';
    if (!action || !['list', 'publish', 'widen', 'pull', 'restore'].includes(action)) throw new UsageError(`say what to do: list, publish, widen, pull or restore`);
    if (needsVersion && !version) throw new UsageError(`release ${action} needs a version`);
    if (action === 'list' && version) throw new UsageError(`unexpected argument ${JSON.stringify(version)}`);
    const msiUrl = values['msi'] as string | undefined;
    if (action === 'publish' && !msiUrl) throw new UsageError('release publish needs --msi <url>');
    const integrity = action === 'publish' ? await integrityOf(values) : {};
    const request: OperatorCall =
      action === 'list'
        ? { method: 'GET', path: '/releases' }
        : action === 'publish'
          ? {
              method: 'POST',
              path: '/releases',
              body: {
                version,
                msiUrl,
                notesUrl: (values['notes'] as string | undefined) ?? null,
                rolloutPercent: percentOf(values['percent'] as string | undefined, 100),
                ...integrity,
                ...(values['critical'] === true ? { critical: true } : {}),
              },
            }
          : action === 'widen'
            ? { method: 'POST', path: `/releases/${encodeURIComponent(version!)}/rollout`, body: { rolloutPercent: percentOf(values['percent'] as string | undefined) } }
            : { method: 'POST', path: `/releases/${encodeURIComponent(version!)}/${action}` };
    const answer = await callOperator('release', request, io);
    if ('exit' in answer) return answer.exit;
    return printAnswer<{ releases?: ReleaseView[] } & ReleaseView>(answer.text, values['json'] === true, io, (r) => rowsOf(r.releases ?? [r]));
  },
};
