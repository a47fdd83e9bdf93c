/**
 * GET /api/v1/version: the desktop version this client should run and the MSI of that same version, for
 * in-app update checks; signed (RFC 9421) over its Content-Digest and the release's headers when the app
 * signs answers (core/releases/answer-signature.ts).
 *
 * @module
 */
import * as v from 'valibot';
import { keptVersionAnswers } from '../releases/answer-signature.ts';
import type { AppContext, Operation } from '../context.ts';
import { encodeJson, headerValue } from '../http/http.ts';
import { andThen } from '../http/maybe.ts';
import { VersionString } from '../schemas/responses.ts';
import { isWindowsClient } from '../clients/platform.ts';
import { clientKeyOf } from '../clients/client-ip.ts';

/**
 * Serves the release of the client's rollout bucket (core/releases/release-view.ts), its answers kept and
 * signed by core/releases/answer-signature.ts. A value that is not a version is a fault of the source: 500, logged.
 */
export function version(context: AppContext): Operation {
  const respond = keptVersionAnswers(context.signatures, (served) => {
    if (!v.is(VersionString, served.version)) throw new Error(`the version source gave ${JSON.stringify(served.version)}, not a version`);
    return encodeJson({ version: served.version, downloadUrl: served.msiUrl });
  });
  // Answered from the release view in memory: synchronous unless a read, a bucket or a new signature must be awaited.
  return (request) =>
    andThen(context.releases.pick(clientKeyOf(request)), (served) => {
      const platform = isWindowsClient(request.headers) ? 'windows' : 'other';
      context.usage.count('update_check', served.version, null, platform);
      context.usage.installed(context.releaseWatch.installedLabel(headerValue(request.headers, 'user-agent')), clientKeyOf(request), platform);
      return respond(served);
    });
}
