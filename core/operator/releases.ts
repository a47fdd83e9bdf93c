/**
 * The operator's release operations: list, publish, widen (or narrow) the rollout, pull. Each change is
 * written to the audit trail and logged, and served by every instance within a second (core/releases.ts).
 *
 * @module
 */
import { decodedParam } from './path-param.ts';
import * as v from 'valibot';
import { readJsonObject } from '../body.ts';
import { json, type CoreRequest } from '../http.ts';
import type { Release } from '../releases.ts';
import { VersionString } from '../schemas/version.ts';
import { parseOrThrow } from '../validate.ts';
import { recordChange, type OperatorContext, type OperatorHandler } from './context.ts';
import { OperatorError } from './errors.ts';

const HttpsUrl = v.pipe(v.string(), v.url('must be an absolute URL'), v.startsWith('https://', 'must be an https:// URL'));
const Percent = v.pipe(v.number(), v.integer('must be a whole number'), v.minValue(0), v.maxValue(100));

export const PublishReleaseSchema = v.strictObject({
  version: VersionString,
  msiUrl: HttpsUrl,
  notesUrl: v.optional(v.nullable(HttpsUrl), null),
  rolloutPercent: Percent,
});

export const RolloutSchema = v.strictObject({ rolloutPercent: Percent });

/** A release as the operator API shows it: times as ISO 8601. */
function view(release: Release) {
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
async function changed(context: OperatorContext, request: CoreRequest, action: string, target: string): Promise<void> {
  await recordChange(context, request, action, target);
  await context.releases.refresh();
}

const versionOf = (params: Record<string, string>): string => {
  const version = decodedParam(params['version']);
  if (!v.is(VersionString, version)) throw new OperatorError('release_not_found', `No release has version ${JSON.stringify(version)}.`);
  return version;
};

export function listReleases(context: OperatorContext): OperatorHandler {
  return async () => json(200, { releases: (await context.storage.releases.listReleases()).map(view) });
}

export function publishRelease(context: OperatorContext): OperatorHandler {
  return async (request) => {
    const input = parseOrThrow(PublishReleaseSchema, readJsonObject(request, context.bodyLimit, true));
    const release = { ...input, publishedAt: context.clock.now() };
    const emit = (published: Release) => ({ event: { type: 'release.published' as const, data: view(published) }, at: release.publishedAt });
    if (!(await context.storage.releases.publishRelease(release, emit))) {
      throw new OperatorError('release_exists', `Version ${input.version} was published before.`);
    }
    await changed(context, request, 'release.published', `${input.version} at ${input.rolloutPercent}%`);
    return json(201, view({ ...release, pulledAt: null }));
  };
}

export function setRollout(context: OperatorContext): OperatorHandler {
  return async (request, params) => {
    const version = versionOf(params);
    const { rolloutPercent } = parseOrThrow(RolloutSchema, readJsonObject(request, context.bodyLimit, true));
    const release = await context.storage.releases.setRollout(version, rolloutPercent);
    if (!release) throw new OperatorError('release_not_found', `No release has version ${version}.`);
    await changed(context, request, 'release.rollout', `${version} at ${rolloutPercent}%`);
    return json(200, view(release));
  };
}

export function pullRelease(context: OperatorContext): OperatorHandler {
  return async (request, params) => {
    const version = versionOf(params);
    const release = await context.storage.releases.pullRelease(version, context.clock.now());
    if (!release) throw new OperatorError('release_not_found', `No release has version ${version}.`);
    await changed(context, request, 'release.pulled', version);
    return json(200, view(release));
  };
}
