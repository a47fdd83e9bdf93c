/**
 * The two routes of the update files (issue 54) as rows of the route table, so that the router,
 * /openapi.json and /llms.txt are built from one declaration, as for every other route: outside /api with
 * no /api alias, `metered: 'errors'` (a 200, 304 or 302 carries nothing per client, a 400 or 404 is metered
 * like every error: docs/decisions.md "The update files are files"). Not rows of endpoints.ts: the typed
 * client calls the API, and a TUF client reads these files.
 *
 * @module
 */
import * as v from 'valibot';
import type { ApiRoute } from '../api-route.ts';
import type { AppContext } from '../context.ts';
import { IF_NONE_MATCH_FIELD } from '../schemas/changelog.ts';
import { CHANNEL_NAME, TARGET, updateFileHandlers, VERSIONED } from './files-route.ts';

/** The tag of the update files in /openapi.json. */
export const UPDATE_FILES_TAG = 'Update files';

const ChannelSchema = v.pipe(
  v.string(),
  v.regex(CHANNEL_NAME),
  v.description(
    'The update channel: 1 to 32 of a-z, 0-9 and -; any other is 400 invalid_parameter. `stable`, `beta` and those the config names exist (404 for another); a channel lists its own releases and those of the more stable channels.',
  ),
);

const UpdateFileNameSchema = v.pipe(
  v.string(),
  v.regex(new RegExp(`^(?:timestamp\\.json|root\\.json|${VERSIONED.source.slice(1, -1)})$`)),
  v.description(
    'timestamp.json, root.json (the newest root, a convenience: TUF clients walk {n}.root.json), or a versioned file ' +
      '{n}.root.json, {n}.snapshot.json, {n}.targets.json (consistent snapshots). Any other name, or a version never served, is 404.',
  ),
);

const TargetFileNameSchema = v.pipe(
  v.string(),
  v.regex(TARGET),
  v.description("A target's consistent-snapshot name, {sha256}.{name}, as the channel's targets file lists it; any other is 404."),
);

const FileIfNoneMatchSchema = v.pipe(
  v.string(),
  v.regex(IF_NONE_MATCH_FIELD),
  v.description(
    'As RFC 9110 section 13.1.2 defines it: * or a list of entity-tags (weak ones compare too). 304 without a body while it ' +
      'names the ETag of the file this name serves now.',
  ),
);

const handlers = (context: AppContext) => updateFileHandlers(context.updateFiles, context.timestampMaxAge);

const FILES_NOTE = 'A file surface for HTTP caches and CDNs, not an endpoint of the API: no /api alias, and outside the public quota ' +
  'but for its errors. Its 200, 304 and 302 answers carry nothing per client (no rate-limit headers), since a cache hands one ' +
  "fetch's answer to every client, and name the channel in Cache-Tag and Surrogate-Key (updates:<channel>), the tag a purge drops once " +
  'new files are stored; its 400 and 404 answers are metered like every error, with the rate-limit headers.';

/** GET /updates/{channel}/{file} and GET /updates/{channel}/targets/{file}. */
export const UPDATE_FILE_ROUTES: readonly ApiRoute[] = [
  {
    operationId: 'getUpdateFile',
    method: 'GET',
    path: '/updates/{channel}/{file}',
    versioned: false,
    metered: 'errors',
    tag: UPDATE_FILES_TAG,
    summary: 'Get an update file (TUF 1.0 metadata)',
    description: 'An addition to the spec. The TUF 1.0 metadata of a channel, which the desktop app (or any stock TUF client) ' +
      'verifies before choosing a release (docs/updates.md, "The update files"): timestamp.json (`Cache-Control: public, ' +
      'max-age=60` by default, configurable) and the versioned {n}.root.json, {n}.snapshot.json and {n}.targets.json ' +
      '(`public, max-age=31536000, immutable`), each with a strong ETag. ' + FILES_NOTE,
    pathParameters: [
      { name: 'channel', required: true, schema: ChannelSchema },
      { name: 'file', required: true, schema: UpdateFileNameSchema },
    ],
    headers: [{ name: 'If-None-Match', required: false, schema: FileIfNoneMatchSchema }],
    success: {
      status: 200,
      description: 'The signed metadata file as stored: TUF 1.0 `{signed, signatures}` JSON, the same bytes from every instance.',
      mediaType: 'application/json',
      freeForm: true,
      extraHeaders: ['ETag'],
    },
    errors: ['invalid_parameter', 'not_found'],
    create: (context) => handlers(context).file,
  },
  {
    operationId: 'getUpdateTarget',
    method: 'GET',
    path: '/updates/{channel}/targets/{file}',
    versioned: false,
    metered: 'errors',
    tag: UPDATE_FILES_TAG,
    summary: "Redirect to an update target's installer",
    description: "An addition to the spec. A target of the channel's targets file, by its consistent-snapshot name: a 302 to " +
      "the installer host (`Cache-Control: public, max-age=86400`), so that a stock TUF client's download works and checks the " +
      'length and SHA-256 its targets file names. ' + FILES_NOTE,
    pathParameters: [
      { name: 'channel', required: true, schema: ChannelSchema },
      { name: 'file', required: true, schema: TargetFileNameSchema },
    ],
    success: { status: 302, description: "Redirect to the target's installer.", headers: ['Location', 'Cache-Control'] },
    errors: ['invalid_parameter', 'not_found'],
    create: (context) => handlers(context).target,
  },
];
