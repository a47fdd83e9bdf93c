/**
 * GET /api/v1/version: the latest desktop version and the MSI URL, for in-app update checks.
 *
 * @module
 */
import type { AppContext, Operation } from '../context.ts';
import { encodeJson, JSON_TYPE, type CoreResponse } from '../http.ts';

/** Serves the version from the version source; the body is serialized again only when the version changes. */
export function version(context: AppContext): Operation {
  const downloadUrl = context.content.download.msiUrl;
  let lastVersion: string | undefined;
  let body: Uint8Array = new Uint8Array();

  const respond = (current: string): CoreResponse => {
    if (current !== lastVersion) {
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
