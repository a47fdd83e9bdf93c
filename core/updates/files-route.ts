/**
 * GET /updates/{channel}/{file}: the update files as a file surface for caches (issue 54,
 * docs/decisions.md "The update files are files"). Outside /api, with no /api alias and outside the public
 * quota: a 200, 304 or 302 carries nothing per client (a cache hands it to everyone), while a 400 or 404
 * is metered like every error (the router's `meteredOnError`).
 *
 * - `timestamp.json` and `root.json` (the newest root, a convenience: stock clients walk `{n}.root.json`):
 *   `Cache-Control: public, max-age=<timestamp max-age>`, a strong ETag, 304 on If-None-Match.
 * - `{n}.root.json`, `{n}.snapshot.json`, `{n}.targets.json`: `public, max-age=31536000, immutable`.
 * - `targets/{sha256}.{name}`: a 302 to the installer, so that a stock TUF client's download works and
 *   checks the hash.
 *
 * Each 200, 304 and 302 names its channel in `Cache-Tag` and `Surrogate-Key` (cache-tags.ts), the tag a
 * purge drops.
 *
 * @module
 */
import { answerOf } from '../http/conditional.ts';
import { CHANNEL_NAME } from '../schemas/update-names.ts';
import { errorResponse } from '../http/errors.ts';
import type { CoreRequest, CoreResponse } from '../http/http.ts';
import type { UpdateFileRole } from '../ports/update-files.ts';
import { cacheTagHeaders } from './cache-tags.ts';
import type { ServedFile, ServedFiles } from './served-files.ts';

/** A channel's name (core/schemas/requests.ts). */
export { CHANNEL_NAME };

/** The Cache-Control of the versioned files: a version's bytes never change. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The timestamp's max-age by default, in seconds. */
export const DEFAULT_TIMESTAMP_MAX_AGE = 60;

/** A versioned file's name: `{n}.root.json`, `{n}.snapshot.json`, `{n}.targets.json`. */
export const VERSIONED = /^([1-9][0-9]{0,9})\.(root|snapshot|targets)\.json$/;
/** A target's consistent-snapshot name: `{sha256}.{name}`. */
export const TARGET = /^[0-9a-f]{64}\.[A-Za-z0-9._-]{1,128}$/;
const JSON_TYPE = 'application/json';

/** What every error of the update files resolves to: where a channel's files start (a path, not a query, is wrong). */
const FILES_START = 'The files of a channel start at /updates/<channel>/timestamp.json; docs/updates.md describes them.';

const notFound = (message: string) => errorResponse('not_found', message, FILES_START);

/** The two routes' handlers over the served files. */
export function updateFileHandlers(files: ServedFiles, timestampMaxAge = DEFAULT_TIMESTAMP_MAX_AGE) {
  const current = `public, max-age=${timestampMaxAge}`;
  const served = (request: CoreRequest, channel: string, file: ServedFile | null, cacheControl: string, missing: string): CoreResponse => {
    if (file === null) return notFound(missing);
    const answer = answerOf(request.headers, { body: file.body, tag: file.tag, lastModified: null }, JSON_TYPE, cacheControl);
    Object.assign(answer.headers, cacheTagHeaders(channel));
    return answer;
  };

  /** The channel, or the error that answers a request for it. */
  const channelOf = (name: string) => {
    if (!CHANNEL_NAME.test(name)) {
      return errorResponse(
        'invalid_parameter',
        `The channel ${JSON.stringify(name.slice(0, 40))} is not a channel name: 1 to 32 of a-z, 0-9 and -.`,
        FILES_START,
      );
    }
    return files.channel(name) ?? notFound(`No update channel is named ${JSON.stringify(name)}.`);
  };

  return {
    /** `/updates/:channel/:file`. */
    file(request: CoreRequest, params: Record<string, string>): CoreResponse {
      const channel = channelOf(params['channel'] ?? '');
      if ('status' in channel) return channel;
      const name = params['file'] ?? '';
      const where = `/updates/${params['channel']}/${name}`;
      if (name === 'timestamp.json' || name === 'root.json') {
        const role: UpdateFileRole = name === 'root.json' ? 'root' : 'timestamp';
        const missing = `Channel ${
          JSON.stringify(params['channel'])
        } has no ${name} yet: no root of it is published (docs/operating.md, "Setting up the update files").`;
        return served(request, params['channel']!, channel.newest(role), current, missing);
      }
      const versioned = VERSIONED.exec(name);
      if (!versioned) return notFound(`No update file is named ${JSON.stringify(where)}.`);
      const file = channel.file(versioned[2] as UpdateFileRole, Number(versioned[1]));
      return served(request, params['channel']!, file, IMMUTABLE, `No ${where} is served here.`);
    },
    /** `/updates/:channel/targets/:file`. */
    target(_request: CoreRequest, params: Record<string, string>): CoreResponse {
      const channel = channelOf(params['channel'] ?? '');
      if ('status' in channel) return channel;
      const name = params['file'] ?? '';
      const url = TARGET.test(name) ? channel.targetUrl(name) : null;
      if (url === null) return notFound(`No target of channel ${JSON.stringify(params['channel'])} is named ${JSON.stringify(name)}.`);
      // A day, not a year: the hash fixes the bytes, not where the installer host keeps them.
      return { status: 302, headers: { location: url, 'cache-control': 'public, max-age=86400', ...cacheTagHeaders(params['channel']!) }, body: null };
    },
  };
}
