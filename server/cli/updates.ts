/**
 * `converter-site-api updates root-key|sign-root|publish-root|status`: the roots of the update files
 * (issue 54, docs/operating.md "Setting up the update files"). `root-key` and `sign-root` run on the
 * operator's machine, offline: no server, no storage; the root key never leaves it. `publish-root` and
 * `status` are clients of the operator API (OPERATOR_URL, OPERATOR_TOKEN).
 *
 * @module
 */
import { readFile, writeFile } from 'node:fs/promises';
import { generateSigningKey } from '../../core/licensing/license.ts';
import type * as v from 'valibot';
import { publishUpdateRoot, updateFilesStatus, type UpdateFilesStatusSchema } from '../../core/operator/update-roots.ts';
import { fromHex } from '../../core/formats/hex.ts';
import { UPDATE_FILE_ROLES } from '../../core/ports/update-files.ts';
import { createTufSigner, tufKeyOf, type TufSigner } from '../../core/tuf/keys.ts';
import { buildRoot, envelopeText, type RootSigned, signEnvelope } from '../../core/tuf/metadata.ts';
import { checkNewRoot, rootOf } from '../../core/tuf/verify.ts';
import { type Command, EXIT, type Io, parseCommandLine, refuseOtherFlags, UsageError } from './command.ts';
import { OPERATOR_EXIT_CODES, prepare, printCall, table } from './operator-api.ts';

const HELP = `usage: converter-site-api updates <root-key|sign-root|publish-root|status> [options]

The roots of the update files under /updates/{channel}/ (docs/operating.md, "Setting up the update files").
A root names the root key(s), which sign the next root and are kept offline, and the server's online key,
which signs timestamp, snapshot and targets. root-key and sign-root run offline, on the machine that keeps
the root key; publish-root and status call the operator API (OPERATOR_URL and OPERATOR_TOKEN).

  updates root-key                 print a new Ed25519 root key (base64 PKCS#8) on stdout, and its keyid
                                   and public key on stderr: save stdout to a file kept offline
  updates sign-root --key <file> [--key <file> ...] --online-key <hex> --expires <YYYY-MM-DD>
                    [--threshold <k>] [--previous <n.root.json> [--previous-key <file> ...]] [--out <file>]
                                   write the next root, {n}.root.json (or --out), signed offline:
                                     --key           a root key of the new root (its root role), which signs it;
                                                     once per key
                                     --threshold     how many of the --key keys must sign the next root (1)
                                     --online-key    the server's online key, hex (\`updates status\` prints it)
                                     --expires       the day the root expires, 00:00 UTC (a year or more ahead)
                                     --previous      the channel's newest root: the new one is its version + 1
                                                     (without it, version 1)
                                     --previous-key  a root key of --previous that is not a --key: rotating the
                                                     root key, the old key co-signs (a threshold of them)
                                   The root is checked as an app walking to it would check it before it is written.
  updates publish-root <file> [--channel <name>]
                                   store the root on the server (channel stable by default)
  updates status [--channel <name>]
                                   the online key (hex, for --online-key) and each role's newest file

options:
  --json    print the operator API's JSON answer (publish-root, status)

${OPERATOR_EXIT_CODES}`;

const FLAGS = {
  json: { type: 'boolean' },
  key: { type: 'string', multiple: true },
  'previous-key': { type: 'string', multiple: true },
  previous: { type: 'string' },
  'online-key': { type: 'string' },
  expires: { type: 'string' },
  threshold: { type: 'string' },
  out: { type: 'string' },
  channel: { type: 'string' },
} as const;

/** Which flags each action takes. */
const TAKES: Record<string, readonly (keyof typeof FLAGS)[]> = {
  'root-key': [],
  'sign-root': ['key', 'previous-key', 'previous', 'online-key', 'expires', 'threshold', 'out'],
  'publish-root': ['channel', 'json'],
  status: ['channel', 'json'],
};

/** The text of a file, or a usage error naming the flag and why it cannot be read. */
async function readText(flag: string, path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`${flag} ${path} cannot be read (${error instanceof Error && 'code' in error ? String(error.code) : String(error)})`);
  }
}

/** The signer of each key file. */
async function signersOf(flag: string, paths: readonly string[]): Promise<TufSigner[]> {
  const signers: TufSigner[] = [];
  for (const path of paths) {
    const text = await readText(flag, path);
    try {
      signers.push(await createTufSigner(text.trim()));
    } catch {
      throw new UsageError(`${flag} ${path} is not an Ed25519 private key in base64 PKCS#8, as \`converter-site-api updates root-key\` prints`);
    }
  }
  return signers;
}

/** --expires as epoch ms: 00:00 UTC of a real day in the future. */
function expiresOf(text: string | undefined, now: number): number {
  if (text === undefined) throw new UsageError('sign-root needs --expires <YYYY-MM-DD>: the day the root expires (a year or more ahead)');
  const ms = Date.parse(`${text}T00:00:00Z`);
  if (!/^\d{4}-\d\d-\d\d$/.test(text) || Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== text) {
    throw new UsageError(`--expires must be a day written YYYY-MM-DD, not ${JSON.stringify(text)}`);
  }
  if (ms <= now) throw new UsageError(`--expires ${text} is not in the future`);
  return ms;
}

/** The previous root's signed part, from its file. */
async function previousOf(path: string): Promise<RootSigned> {
  const text = await readText('--previous', path);
  let file: unknown;
  try {
    file = JSON.parse(text);
  } catch {
    throw new UsageError(`--previous ${path} is not a root file (n.root.json): it is not JSON`);
  }
  // The shape an app checks, so that a truncated or hand-edited root is refused here, not met with a TypeError.
  const checked = await rootOf(file);
  if (!checked.ok) throw new UsageError(`--previous ${path} is not a root file (n.root.json): ${checked.problem}`);
  return checked.root;
}

async function signRoot(values: ReturnType<typeof parseCommandLine<typeof FLAGS>>['values'], io: Io): Promise<number> {
  const now = Date.now();
  if (!values.key?.length) throw new UsageError('sign-root needs --key <file>: a root key of the new root (`updates root-key` makes one)');
  const online = values['online-key']?.trim().toLowerCase();
  if (online === undefined) throw new UsageError("sign-root needs --online-key <hex>: the server's online key, as `updates status` prints it");
  if (!/^[0-9a-f]{64}$/.test(online)) throw new UsageError('--online-key must be the 64 hex digits `updates status` prints');
  const expires = expiresOf(values.expires, now);
  const threshold = values.threshold ?? '1';
  if (!/^[1-9]\d{0,2}$/.test(threshold)) throw new UsageError(`--threshold must be a whole number from 1, not ${JSON.stringify(threshold)}`);
  if (values['previous-key']?.length && values.previous === undefined) {
    throw new UsageError('--previous-key goes with --previous: the root file whose root keys it holds');
  }
  const previous = values.previous === undefined ? null : await previousOf(values.previous);
  const rootSigners = await signersOf('--key', values.key);
  const oldSigners = await signersOf('--previous-key', values['previous-key'] ?? []);
  const version = previous === null ? 1 : previous.version + 1;
  let signed: RootSigned;
  try {
    signed = await buildRoot({
      version,
      expires,
      rootKeys: rootSigners.map((s) => s.key),
      rootThreshold: Number(threshold),
      onlineKey: tufKeyOf(fromHex(online)),
    });
  } catch (error) {
    throw new UsageError((error as Error).message.replace(/^root: /, ''));
  }
  const text = envelopeText(await signEnvelope(signed, [...rootSigners, ...oldSigners]));
  const checked = await checkNewRoot(JSON.parse(text), previous, now);
  if (!checked.ok) throw new Error(`${checked.problem} Nothing was written.`);
  const out = values.out ?? `${version}.root.json`;
  try {
    // The exact bytes the server stores and serves; never over another file (an older root is the chain's).
    await writeFile(out, text, { flag: 'wx' });
  } catch (error) {
    const code = error instanceof Error && 'code' in error ? String(error.code) : String(error);
    throw new Error(code === 'EEXIST' ? `${out} exists already: give another --out, or move it away` : `${out} cannot be written (${code})`);
  }
  const roles = signed.roles.root;
  io.stderr(
    `wrote ${out}: root version ${version}, expires ${signed.expires}\n` +
      `root keys (threshold ${roles.threshold}): ${roles.keyids.join(', ')}\n` +
      `online key: ${signed.roles.timestamp.keyids[0]}\n` +
      `publish it: converter-site-api updates publish-root ${out}\n`,
  );
  return EXIT.ok;
}

async function rootKey(io: Io): Promise<number> {
  const key = await generateSigningKey();
  const signer = await createTufSigner(key);
  io.stdout(`${key}\n`);
  io.stderr(
    `root keyid ${signer.keyid}\npublic key ${signer.key.keyval.public}\n` +
      'Keep the private key (stdout) offline, with a copy somewhere safe: it signs every root, and the server never needs it.\n',
  );
  return EXIT.ok;
}

export const updates: Command = {
  name: 'updates',
  summary: 'the update files: root-key and sign-root offline, publish-root and status (operator API)',
  help: HELP,
  async run(args, io: Io) {
    const { values, positionals } = parseCommandLine(args, FLAGS, 2);
    const [action, file] = positionals;
    if (action === undefined || !(action in TAKES)) throw new UsageError('say what to do: root-key, sign-root, publish-root or status');
    refuseOtherFlags('updates', action, values, TAKES[action]!);
    if (action === 'publish-root' && file === undefined) throw new UsageError('updates publish-root needs the root file (n.root.json) sign-root wrote');
    if (action !== 'publish-root' && file !== undefined) throw new UsageError(`unexpected argument ${JSON.stringify(file)}`);
    if (action === 'root-key') return rootKey(io);
    if (action === 'sign-root') return signRoot(values, io);
    const params = { channel: values.channel ?? 'stable' };
    const json = values.json === true;
    if (action === 'publish-root') {
      let body: { signed?: unknown; signatures?: unknown };
      try {
        body = JSON.parse(await readText('the root file', file!)) as typeof body;
      } catch (error) {
        if (error instanceof UsageError) throw error;
        throw new UsageError(`${file} is not JSON: give the n.root.json sign-root wrote`);
      }
      return printCall(
        'updates',
        prepare(publishUpdateRoot, { params, body }),
        json,
        io,
        (r) => `published root ${r.version} of ${r.channel}, expires ${r.expires}\nroot keys: ${r.rootKeyids.join(', ')}\nonline key: ${r.onlineKeyid}\n`,
      );
    }
    return printCall('updates', prepare(updateFilesStatus, { params }), json, io, statusText);
  },
};

/** `updates status` for people: the online key, then each role's newest file. */
function statusText(s: v.InferOutput<typeof UpdateFilesStatusSchema>): string {
  const cell = (text: string | undefined) => text ?? '-';
  const online = s.onlineKey === null
    ? 'online key: none (start the server with UPDATES_ONLINE_KEY set, or let it generate one in storage)\n'
    : `online keyid ${s.onlineKeyid}\nonline key (for sign-root --online-key):\n${s.onlineKey.keyval.public}\n`;
  const roles = UPDATE_FILE_ROLES.map((role) => {
    const newest = s.roles[role];
    return [role, cell(newest?.version.toString()), cell(newest?.expires), cell(newest?.storedAt)];
  });
  return `channel ${s.channel}\n${online}\n${table([['ROLE', 'VERSION', 'EXPIRES', 'STORED'], ...roles])}`;
}
