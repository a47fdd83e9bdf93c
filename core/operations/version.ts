/**
 * GET /api/v1/version: the desktop version this client should run and the MSI of that same version, for
 * in-app update checks.
 *
 * @module
 */
import * as v from 'valibot';
import type { AppContext, Operation } from '../context.ts';
import { encodeJson, JSON_TYPE, type CoreResponse } from '../http.ts';
import { andThen } from '../maybe.ts';
import type { ServedRelease } from '../releases.ts';
import { VersionString } from '../schemas/responses.ts';
import { isWindowsClient } from './download.ts';

/** Bodies kept at most: the current and previous release and the baseline, with room for changes. */
const BODIES = 8;

/**
 * Serves the release of the client's rollout bucket (core/releases.ts), from bodies serialized once per
 * release. A value that is not a version is a fault of the source: 500, logged.
 */
export function version(context: AppContext): Operation {
  const bodies = new Map<string, Uint8Array>();
  const bodyOf = (served: ServedRelease): Uint8Array => {
    const key = `${served.version}\n${served.msiUrl}`;
    let body = bodies.get(key);
    if (body === undefined) {
      if (!v.is(VersionString, served.version)) throw new Error(`the version source gave ${JSON.stringify(served.version)}, not a version`);
      if (bodies.size >= BODIES) bodies.clear();
      bodies.set(key, (body = encodeJson({ version: served.version, downloadUrl: served.msiUrl })));
    }
    return body;
  };
  const answer = (served: ServedRelease): CoreResponse => ({ status: 200, headers: { 'content-type': JSON_TYPE }, body: bodyOf(served) });
  // Answered from the release view in memory: synchronous unless a read or a bucket must be awaited.
  return (request) =>
    andThen(context.releases.pick(() => context.rolloutBucket(request.clientIp)), (served) => {
      context.usage.count('update_check', served.version, null, isWindowsClient(request.headers) ? 'windows' : 'other');
      return answer(served);
    });
}
