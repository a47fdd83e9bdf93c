/**
 * The operator's release operations: list, publish, widen (or narrow) the rollout, pull. Each change is
 * written to the audit trail and logged, and served by every instance within a second (core/releases.ts).
 *
 * @module
 */
import * as v from 'valibot';
import type { Release } from '../releases.ts';
import { VersionString } from '../schemas/version.ts';
import { recordChange, type OperatorContext } from './context.ts';
import { OperatorError } from './errors.ts';
import { IsoTime } from './json-views.ts';
import { defineOperation, type Caller } from './operation.ts';

const HttpsUrl = v.pipe(v.string(), v.url('must be an absolute URL'), v.startsWith('https://', 'must be an https:// URL'));
const Percent = v.pipe(v.number(), v.integer('must be a whole number'), v.minValue(0), v.maxValue(100));

export const PublishReleaseSchema = v.strictObject({
  version: VersionString,
  msiUrl: HttpsUrl,
  notesUrl: v.optional(v.nullable(HttpsUrl), null),
  rolloutPercent: Percent,
});

export const RolloutSchema = v.strictObject({ rolloutPercent: Percent });

/** A release as the operator API shows it. */
export const ReleaseViewSchema = v.object({
  version: v.string(),
  msiUrl: v.string(),
  notesUrl: v.nullable(v.string()),
  rolloutPercent: v.number(),
  publishedAt: IsoTime,
  pulledAt: v.nullable(IsoTime),
});
export type ReleaseJson = v.InferOutput<typeof ReleaseViewSchema>;

/** A release as the operator API shows it: times as ISO 8601. */
function view(release: Release): ReleaseJson {
  return {
    version: release.version,
    msiUrl: release.msiUrl,
    notesUrl: release.notesUrl,
    rolloutPercent: release.rolloutPercent,
    publishedAt: new Date(release.publishedAt).toISOString(),
    pulledAt: release.pulledAt === null ? null : new Date(release.pulledAt).toISOString(),
  };
}

/** Records a change in the audit trail and the log, and makes this instance serve it at once. */
async function changed(context: OperatorContext, caller: Caller, action: string, target: string): Promise<void> {
  await recordChange(context, caller, action, target);
  await context.releases.refresh();
}

const versionOf = (text: string): string => {
  if (!v.is(VersionString, text)) throw new OperatorError('release_not_found', `No release has version ${JSON.stringify(text)}.`);
  return text;
};

export const listReleases = defineOperation({
  operationId: 'listReleases',
  method: 'GET',
  path: '/releases',
  summary: 'Every release, newest first, with its rollout and whether it was pulled.',
  output: v.object({ releases: v.array(ReleaseViewSchema) }),
  status: 200,
  errors: [],
  run: async (context) => ({ releases: (await context.storage.releases.listReleases()).map(view) }),
});

export const publishRelease = defineOperation({
  operationId: 'publishRelease',
  method: 'POST',
  path: '/releases',
  summary: 'Publish a release to a share of the clients (rolloutPercent); the others keep the one before.',
  body: PublishReleaseSchema,
  output: ReleaseViewSchema,
  status: 201,
  errors: ['release_exists'],
  async run(context, { body }, caller) {
    const release = { ...body, publishedAt: context.clock.now() };
    const emit = (published: Release) => ({ event: { type: 'release.published' as const, data: view(published) }, at: release.publishedAt });
    if (!(await context.storage.releases.publishRelease(release, emit))) {
      throw new OperatorError('release_exists', `Version ${body.version} was published before.`);
    }
    await changed(context, caller, 'release.published', `${body.version} at ${body.rolloutPercent}%`);
    return view({ ...release, pulledAt: null });
  },
});

export const setReleaseRollout = defineOperation({
  operationId: 'setReleaseRollout',
  method: 'POST',
  path: '/releases/:version/rollout',
  summary: 'Widen (or narrow) the share of clients a release is served to.',
  body: RolloutSchema,
  output: ReleaseViewSchema,
  status: 200,
  errors: ['release_not_found'],
  async run(context, { params, body }, caller) {
    const version = versionOf(params.version);
    const release = await context.storage.releases.setRollout(version, body.rolloutPercent);
    if (!release) throw new OperatorError('release_not_found', `No release has version ${version}.`);
    await changed(context, caller, 'release.rollout', `${version} at ${body.rolloutPercent}%`);
    return view(release);
  },
});

export const pullRelease = defineOperation({
  operationId: 'pullRelease',
  method: 'POST',
  path: '/releases/:version/pull',
  summary: 'Pull a release: no client gets it again; the release before it is served.',
  output: ReleaseViewSchema,
  status: 200,
  errors: ['release_not_found'],
  async run(context, { params }, caller) {
    const version = versionOf(params.version);
    const release = await context.storage.releases.pullRelease(version, context.clock.now());
    if (!release) throw new OperatorError('release_not_found', `No release has version ${version}.`);
    await changed(context, caller, 'release.pulled', version);
    return view(release);
  },
});
