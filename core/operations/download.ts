/**
 * GET /api/v1/download: redirect to the current MSI installer, or to the Windows-only warning page.
 *
 * @module
 */
import { redirectFields, UPDATE_ANSWER, withSignature } from '../releases/answer-signature.ts';
import type { AppContext, Operation } from '../context.ts';
import { ApiError } from '../http/errors.ts';
import { DownloadSourceSchema } from '../schemas/requests.ts';
import { parseQueryOrThrow } from '../http/validate.ts';
import { windowsOnlyUrl } from './windows-only.ts';
import { clientKeyOf } from '../clients/client-ip.ts';
import { isWindowsClient } from '../clients/platform.ts';

/** The single value of a query parameter; a repeated parameter is an error. */
function single(query: URLSearchParams, name: string): string | undefined {
  const values = query.getAll(name);
  if (values.length > 1) throw new ApiError('invalid_parameter', `Query parameter "${name}" is given more than once.`);
  return values[0];
}

/**
 * Redirects with 302. The Location is one of the operator's configured URLs, or the shipped Windows-only
 * page (when no `nonWindowsUrl` is configured) with the validated `source` label. Each download is recorded; a storage fault is logged and never blocks the installer (a full
 * memory storage is logged once a minute).
 */
export function download(context: AppContext): Operation {
  const { nonWindowsUrl } = context.content.download;
  let lastFullLog = -Infinity;
  return async (request) => {
    const query = new URLSearchParams(request.query ?? '');
    const force = single(query, 'force');
    if (force !== undefined && force !== '1') {
      throw new ApiError('invalid_parameter', 'Query parameter "force" must be "1" when given.');
    }
    const source = single(query, 'source') || undefined;
    if (source !== undefined) parseQueryOrThrow(DownloadSourceSchema, 'source', source, 'invalid_parameter');
    const windows = isWindowsClient(request.headers);
    const forced = force === '1';
    // The same release GET /version names for this client: never one version's MSI for another's check.
    const served = await context.releases.pick(clientKeyOf(request));
    const { msiUrl, version: release } = served;
    context.usage.count('download', release, source ?? null, windows ? 'windows' : 'other');
    try {
      await context.storage.intake.recordDownload({
        at: context.clock.now(),
        source: source ?? null,
        platform: windows ? 'windows' : 'other',
        forced,
      });
    } catch (error) {
      if (!(error instanceof ApiError && error.code === 'storage_full')) {
        context.count('storage_error');
        context.logger.error('could not record a download', { requestId: request.requestId, error: String(error) });
      } else if (context.clock.now() - lastFullLog >= 60_000) {
        // A full memory storage would otherwise log every download of a flood.
        lastFullLog = context.clock.now();
        context.logger.warn('downloads are not counted: the storage holds the most download events it may', {
          requestId: request.requestId,
          error: error.message,
        });
      }
    }
    const toInstaller = windows || forced;
    const location = toInstaller ? msiUrl : (nonWindowsUrl ?? windowsOnlyUrl(context.publicBaseUrl, source));
    const headers: Record<string, string> = { location, vary: 'User-Agent, Sec-CH-UA-Platform' };
    if (context.signatures) {
      // Signed as core/releases/answer-signature.ts signs every update answer.
      const fields = redirectFields(location, toInstaller ? served : null);
      withSignature(headers, fields, await context.signatures.sign(302, fields, UPDATE_ANSWER));
    }
    return { status: 302, headers, body: null };
  };
}
