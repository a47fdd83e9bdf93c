/**
 * `converter-site-api release list|publish|widen|pull|restore`: the operator API's releases (docs/operating.md),
 * from OPERATOR_URL with OPERATOR_TOKEN. A table for people, `--json` for scripts.
 *
 * @module
 */
import { type Command, type FlagValues, type Io, parseCommandLine, UsageError } from './command.ts';
import { digestOfFile } from './msi-file.ts';
import {
  listReleases,
  promoteRelease,
  publishRelease,
  pullRelease,
  type ReleaseJson,
  restoreRelease,
  setReleaseRollout,
} from '../../core/operator/releases.ts';
import { resumeRelease } from '../../core/operator/release-halt.ts';
import { callOperator, OPERATOR_HELP_FOOTER, prepare, printAnswer } from './operator-api.ts';

const HELP = `usage: converter-site-api release <list|publish|widen|promote|pull|restore|resume> [options]

Manages the desktop releases GET /api/v1/version and GET /api/v1/download serve, through the operator
API of a running server (OPERATOR_URL, e.g. http://127.0.0.1:8081, and OPERATOR_TOKEN).

  release list                                         every release, highest version first, with the
                                                       share of clients each is served to now (SERVED)
  release publish <version> --msi <url> [--file <path.msi> | --sha256 <hex> --size <bytes>]
                  [--channel <stable|beta|...>] [--notes <url>]
                  [--percent <0-100> | --ramp <p1,p2,...> --every <30m|24h|7d>
                  [--halt-min-clients <n>] [--halt-min-networks <n>]] [--critical]
                                                       a new release above every published version, offered
                                                       to a share of clients (100 by default), or on a ramp
                                                       plan (--ramp 0.5,5,25,100 --every 24h: one step a day;
                                                       --halt-min-*: the halt rule's minimums for this plan);
                                                       --file computes the MSI's SHA-256 and size from the file;
                                                       --channel: stable by default
  release promote <version> --channel <channel> [--percent <0-100> | --ramp <p1,...> --every <24h>]
                                                       move it to a more stable channel (beta to stable), on
                                                       the rollout or ramp given, or its own
  release widen <version> --percent <0-100>            change the share of clients offered it or a newer one
                                                       (ends its ramp plan)
  release pull <version>                               stop serving it; its clients get the next one below
                                                       (ends its ramp plan at the step in force)
  release restore <version>                            serve a pulled release again
  release resume <version>                             resume a ramp the halt rule held

Percents take up to two decimals (0.5 is one client in 200: 50 basis points). A client is served the highest
version whose rollout is above its bucket: see docs/releases.md.

${OPERATOR_HELP_FOOTER}`;

const FLAGS = {
  json: { type: 'boolean' },
  msi: { type: 'string' },
  notes: { type: 'string' },
  percent: { type: 'string' },
  file: { type: 'string' },
  sha256: { type: 'string' },
  size: { type: 'string' },
  critical: { type: 'boolean' },
  ramp: { type: 'string' },
  channel: { type: 'string' },
  every: { type: 'string' },
  'halt-min-clients': { type: 'string' },
  'halt-min-networks': { type: 'string' },
} as const;

/** The plan in a cell: "10,50,100 /60m step 2, next 2026-11-21T13:00:00.000Z", or "-". */
const planOf = (r: ReleaseJson): string =>
  r.ramp === null ? '-' : `${r.ramp.steps.join(',')} /${r.ramp.everyMinutes}m step ${r.ramp.step}${r.ramp.nextStepAt ? `, next ${r.ramp.nextStepAt}` : ''}`;

const stateOf = (r: ReleaseJson): string => (r.pulledAt ? 'pulled' : r.haltedAt ? 'halted' : 'live');

const rowsOf = (releases: readonly ReleaseJson[]): string[][] => [
  ['VERSION', 'CHANNEL', 'ROLLOUT', 'SERVED', 'STATE', 'PLAN', 'PUBLISHED', 'MSI'],
  ...releases.map((r) => [r.version, r.channel, `${r.rolloutPercent}%`, `${r.servedPercent}%`, stateOf(r), planOf(r), r.publishedAt, r.msiUrl]),
];

/** --every as minutes: a whole number of minutes, hours or days ("30m", "24h", "7d"). */
function minutesOf(text: string | undefined): number {
  const match = /^(\d{1,6})([mhd])$/.exec(text ?? '');
  if (!match) throw new UsageError(`--every must be a whole number of minutes, hours or days such as 24h, not ${JSON.stringify(text ?? '')}`);
  return Number(match[1]) * { m: 1, h: 60, d: 24 * 60 }[match[2] as 'm' | 'h' | 'd'];
}

/** A --halt-min-* flag as the API's field, when given; the API checks the range. */
function minimumOf(values: FlagValues<typeof FLAGS>, flag: 'halt-min-clients' | 'halt-min-networks', field: string): Record<string, number> {
  const text = values[flag];
  if (text === undefined) return {};
  if (!/^\d{1,7}$/.test(text)) throw new UsageError(`--${flag} must be a whole number, not ${JSON.stringify(text)}`);
  return { [field]: Number(text) };
}

/** --ramp and --every (and the halt rule's minimums) as the API's plan (its first step is the rollout); the API checks the steps. */
function rampOf(values: FlagValues<typeof FLAGS>): { basisPoints: number[]; everyMinutes: number } | null {
  if (values.ramp === undefined) {
    if (values.every !== undefined) throw new UsageError('--every goes with --ramp');
    if (values['halt-min-clients'] !== undefined || values['halt-min-networks'] !== undefined) {
      throw new UsageError('--halt-min-clients and --halt-min-networks go with --ramp');
    }
    return null;
  }
  if (values.percent !== undefined) throw new UsageError('give --percent or --ramp, not both: the ramp starts at its first step');
  const basisPoints = values.ramp.split(',').map((step) => basisPointsOf(step.trim(), undefined, '--ramp'));
  const minimums = { ...minimumOf(values, 'halt-min-clients', 'haltMinClients'), ...minimumOf(values, 'halt-min-networks', 'haltMinNetworks') };
  return { basisPoints, everyMinutes: minutesOf(values.every), ...minimums };
}

/** A percent from 0 to 100 with up to two decimals ("0.5") as basis points (50), what the API keeps. */
function basisPointsOf(text: string | undefined, fallback?: number, flag = '--percent'): number {
  if (text === undefined && fallback !== undefined) return fallback;
  if (text === undefined || !/^\d{1,3}(?:\.\d{1,2})?$/.test(text) || Number(text) > 100) {
    throw new UsageError(`${flag} must be a percent from 0 to 100 with at most two decimals (such as 0.5), not ${JSON.stringify(text ?? '')}`);
  }
  return Math.round(Number(text) * 100);
}

/** The MSI's digest and size: from --file, or as given by --sha256 and --size (the API checks the digest). */
async function integrityOf(values: FlagValues<typeof FLAGS>): Promise<{ sha256?: string; size?: number }> {
  const { file, sha256, size } = values;
  if (file !== undefined) {
    if (sha256 !== undefined || size !== undefined) throw new UsageError('give --file, or --sha256 and --size, not both');
    try {
      return await digestOfFile(file);
    } catch (error) {
      throw new UsageError(`--file ${file} cannot be read (${error instanceof Error && 'code' in error ? String(error.code) : String(error)})`);
    }
  }
  if (size !== undefined && !/^\d{1,16}$/.test(size)) throw new UsageError(`--size must be the MSI's size in bytes, not ${JSON.stringify(size)}`);
  return { ...(sha256 === undefined ? {} : { sha256 }), ...(size === undefined ? {} : { size: Number(size) }) };
}

export const release: Command = {
  name: 'release',
  summary: 'publish (on a ramp plan), widen, pull, restore, resume and list desktop releases (operator API)',
  help: HELP,
  async run(args, io: Io) {
    const { values, positionals } = parseCommandLine(args, FLAGS, 2);
    const [action, version = ''] = positionals;
    const needsVersion = action !== undefined && action !== 'list';
    if (!action || !['list', 'publish', 'widen', 'promote', 'pull', 'restore', 'resume'].includes(action)) {
      throw new UsageError(`say what to do: list, publish, widen, promote, pull, restore or resume`);
    }
    if (values.channel !== undefined && action !== 'publish' && action !== 'promote') throw new UsageError('--channel goes with publish or promote');
    if (action === 'promote' && values.channel === undefined) throw new UsageError('release promote needs --channel <channel>, such as stable');
    if (needsVersion && !version) throw new UsageError(`release ${action} needs a version`);
    if (action === 'list' && version) throw new UsageError(`unexpected argument ${JSON.stringify(version)}`);
    const json = values.json === true;
    if (action === 'list') {
      const answer = await callOperator('release', prepare(listReleases), io);
      return 'exit' in answer ? answer.exit : printAnswer(answer, json, io, (a) => rowsOf(a.releases));
    }
    const msiUrl = values.msi;
    if (action === 'publish' && !msiUrl) throw new UsageError('release publish needs --msi <url>');
    const params = { version };
    const ramp = action === 'publish' || action === 'promote' ? rampOf(values) : null;
    const call = action === 'publish'
      ? prepare(publishRelease, {
        body: {
          version,
          msiUrl: msiUrl!,
          notesUrl: values.notes ?? null,
          ...(values.channel === undefined ? {} : { channel: values.channel }),
          ...(ramp === null ? { rolloutBasisPoints: basisPointsOf(values.percent, 10000) } : { ramp }),
          ...(await integrityOf(values)),
          ...(values.critical === true ? { critical: true } : {}),
        },
      })
      : action === 'promote'
      ? prepare(promoteRelease, {
        params,
        body: {
          channel: values.channel!,
          ...(ramp !== null ? { ramp } : values.percent !== undefined ? { rolloutBasisPoints: basisPointsOf(values.percent) } : {}),
        },
      })
      : action === 'widen'
      ? prepare(setReleaseRollout, { params, body: { rolloutBasisPoints: basisPointsOf(values.percent) } })
      : action === 'resume'
      ? prepare(resumeRelease, { params })
      : prepare(action === 'pull' ? pullRelease : restoreRelease, { params });
    const answer = await callOperator('release', call, io);
    return 'exit' in answer ? answer.exit : printAnswer(answer, json, io, (r) => rowsOf([r]));
  },
};
