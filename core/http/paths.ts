/**
 * The paths an app answers, for hosts that mount it beside routes of their own (Express, Fastify,
 * Next.js): forward exactly these to the app and keep every other path for the rest of the site.
 *
 * @module
 */

/**
 * Prefixes of the paths answered: `/api/` (every operation, its `/api` alias and the provider's
 * notifications), `/checkout/` (the hosted-checkout pages a gateway serves itself, such as the
 * payment simulator's `/checkout/simulator/<id>`) and `/updates/` (the signed update files, issue 54).
 */
export const APP_PATH_PREFIXES: readonly string[] = ['/api/', '/checkout/', '/updates/'];

/** Single paths answered: the discovery documents, the probes and the shipped Windows-only page. */
export const APP_PATHS: readonly string[] = ['/llms.txt', '/openapi.json', '/healthz', '/readyz', '/windows-only'];

/**
 * Whether the app answers a path (a trailing `/` is ignored, as the app's router ignores it).
 *
 * @param path The request path without the query, e.g. `/api/v1/pricing`.
 * @returns True when the host should hand the request to the app.
 */
export function isAppPath(path: string): boolean {
  if (APP_PATH_PREFIXES.some((prefix) => path.startsWith(prefix))) return true;
  const trimmed = path.length > 1 ? path.replace(/\/+$/, '') : path;
  return APP_PATHS.includes(trimmed);
}
