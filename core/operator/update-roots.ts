/**
 * The update files' roots (issue 54, docs/operating.md "Setting up the update files"): the operator
 * publishes a root file signed offline (`converter-site-api updates sign-root`) and reads what the
 * channel holds. A root is checked as a TUF client walks to it (core/tuf/verify.ts) against the channel's
 * newest stored root, must name this server's online key for timestamp, snapshot and targets, and is
 * stored once, by a conditional insert, in an audited change, after which the channel's cache tag is purged
 * (root.json names the newest root). The server never holds a root key.
 *
 * @module
 */
import * as v from 'valibot';
import { operatorChange, type OperatorContext } from './context.ts';
import { OperatorError } from './errors.ts';
import { IsoTime } from './json-views.ts';
import { defineOperation } from './operation.ts';
import { UPDATE_FILE_ROLES, type UpdateFileRole } from '../ports/update-files.ts';
import type { TufSigner } from '../tuf/keys.ts';
import { type Envelope, envelopeText, expiresMs, type RootSigned } from '../tuf/metadata.ts';
import { checkNewRoot } from '../tuf/verify.ts';
import { knownChannel } from './known-channel.ts';

/** The roles the online key signs, which a root must give it: all but root. */
const ONLINE_ROLES = UPDATE_FILE_ROLES.filter((role) => role !== 'root');

/** A channel of this app, else channel_not_found. */
function channelOf(context: OperatorContext, name: string): string {
  knownChannel(context, name);
  return name;
}

/** This server's online key, which the root must name for every online role; else root_online_key_unknown. */
function checkOnlineKey(signer: TufSigner | null, root: RootSigned): TufSigner {
  if (signer === null) {
    throw new OperatorError(
      'root_online_key_unknown',
      'This server has no online key to sign timestamp, snapshot and targets with: start it with UPDATES_ONLINE_KEY set ' +
        '(or let it generate one in storage), then sign the root for that key.',
    );
  }
  const without = ONLINE_ROLES.filter((role) => !root.roles[role].keyids.includes(signer.keyid));
  if (without.length > 0) {
    throw new OperatorError(
      'root_online_key_unknown',
      `The root does not name this server's online key (keyid ${signer.keyid}) for ${without.join(', ')}: sign it with ` +
        `\`converter-site-api updates sign-root --online-key ${signer.key.keyval.public}\` (\`converter-site-api updates status\` prints the key).`,
    );
  }
  return signer;
}

export const RootFileSchema = v.looseObject({
  signed: v.optional(v.pipe(v.unknown(), v.description("The root's signed part (TUF 1.0 root metadata), as `updates sign-root` wrote it."))),
  signatures: v.optional(
    v.pipe(v.unknown(), v.description('The signatures of its canonical JSON: [{keyid, sig}], by the new and (rotating) the old root keys.')),
  ),
});

export const PublishedRootSchema = v.object({
  channel: v.string(),
  version: v.number(),
  expires: IsoTime,
  rootKeyids: v.pipe(v.array(v.string()), v.description('The keyids of the root role: the keys that sign the next root.')),
  onlineKeyid: v.pipe(v.string(), v.description("This server's online key, which the root names for timestamp, snapshot and targets.")),
});

export const publishUpdateRoot = defineOperation({
  operationId: 'publishUpdateRoot',
  method: 'POST',
  path: '/update-roots/:channel',
  summary: "Store a channel's next root file, signed offline (`converter-site-api updates sign-root`): version 1, or the newest root's plus one " +
    "signed by its root keys too; it must name this server's online key for timestamp, snapshot and targets.",
  body: RootFileSchema,
  output: PublishedRootSchema,
  status: 201,
  errors: ['channel_not_found', 'invalid_root', 'root_online_key_unknown', 'root_version_exists'],
  async run(context, { params, body }, caller) {
    const channel = channelOf(context, params.channel);
    const envelope = { signed: body.signed, signatures: body.signatures };
    const now = context.clock.now();
    const published = await operatorChange(context, caller, async (tx) => {
      const newest = await tx.updateFiles.newestUpdateFile(channel, 'root');
      const previous = newest === null ? null : (JSON.parse(newest.text) as { signed: RootSigned }).signed;
      const checked = await checkNewRoot(envelope, previous, now);
      if (!checked.ok) throw new OperatorError('invalid_root', checked.problem);
      const { root } = checked;
      const signer = checkOnlineKey(context.updateSigner, root);
      const expiresAt = expiresMs(root.expires);
      // checkNewRoot accepted it, so its signatures are a list.
      const stored = await tx.updateFiles.putUpdateFile({
        channel,
        role: 'root',
        version: root.version,
        text: envelopeText(envelope as Envelope<unknown>),
        storedAt: now,
        expiresAt,
      });
      if (!stored) throw new OperatorError('root_version_exists', `Root version ${root.version} of channel ${channel} was stored just now by another request.`);
      return {
        result: {
          channel,
          version: root.version,
          expires: new Date(expiresAt).toISOString(),
          rootKeyids: root.roles.root.keyids,
          onlineKeyid: signer.keyid,
        },
        at: now,
        audit: { action: 'update-root.published', target: `${channel} ${root.version}` },
      };
    });
    // root.json now serves other bytes under the same name: the caches drop the channel's copies once this
    // instance serves it (its next refresh starts the purge, as after new signed files).
    context.cachePurges?.request(channel);
    return published;
  },
});

const NewestFileSchema = v.nullable(v.object({ version: v.number(), expires: IsoTime, storedAt: IsoTime }));

export const UpdateFilesStatusSchema = v.object({
  channel: v.string(),
  onlineKeyid: v.pipe(v.nullable(v.string()), v.description("The online key's keyid; null when this server has none.")),
  onlineKey: v.pipe(
    v.nullable(v.object({ keytype: v.literal('ed25519'), scheme: v.literal('ed25519'), keyval: v.object({ public: v.string() }) })),
    v.description('The online key as a root lists it: give keyval.public to `updates sign-root --online-key`.'),
  ),
  roles: v.object({ root: NewestFileSchema, timestamp: NewestFileSchema, snapshot: NewestFileSchema, targets: NewestFileSchema }),
});

export const updateFilesStatus = defineOperation({
  operationId: 'updateFilesStatus',
  method: 'GET',
  path: '/update-files/:channel',
  summary: "A channel's update files: this server's online key (what a root must name) and each role's newest stored file, its version and expiry.",
  output: UpdateFilesStatusSchema,
  status: 200,
  errors: ['channel_not_found'],
  async run(context, { params }) {
    const channel = channelOf(context, params.channel);
    const newest = async (role: UpdateFileRole) => {
      const file = await context.storage.updateFiles.newestUpdateFile(channel, role);
      return file === null ? null : { version: file.version, expires: new Date(file.expiresAt).toISOString(), storedAt: new Date(file.storedAt).toISOString() };
    };
    const signer = context.updateSigner;
    return {
      channel,
      onlineKeyid: signer?.keyid ?? null,
      onlineKey: signer?.key ?? null,
      roles: { root: await newest('root'), timestamp: await newest('timestamp'), snapshot: await newest('snapshot'), targets: await newest('targets') },
    };
  },
});
