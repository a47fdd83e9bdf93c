/**
 * GET /api/v1/version: the latest desktop version and the MSI URL, for in-app update checks.
 *
 * @module
 */
import * as v from 'valibot';
import type { AppContext, Operation } from '../context.ts';
import { encodeJson, JSON_TYPE, type CoreResponse } from '../http.ts';
import { VersionString } from '../schemas/responses.ts';

/**
 * Serves the version from the version source; the body is serialized again only when the version changes.
 * A value that is not a version is a fault of the source: 500, logged.
 */
export function version(context: AppContext): Operation {
  const downloadUrl = context.content.download.msiUrl;
  let lastVersion: string | undefined;
  let body: Uint8Array = new Uint8Array();

  const respond = (current: string): CoreResponse => {
    if (current !== lastVersion) {
      if (!v.is(VersionString, current)) throw new Error(`the version source gave ${JSON.stringify(current)}, not a version`);
      body = encodeJson({ version: current, downloadUrl });
      lastVersion = current;
    }
    return { status: 200, headers: { 'content-type': JSON_TYPE }, body };
  };

  return () => {
    const current = context.version.current();
    return typeof current === 'string' ? respond(current) : current.then(respond);
  };
}
