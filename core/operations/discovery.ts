/**
 * GET /llms.txt and GET /openapi.json: the two documents that describe this API.
 *
 * @module
 */
import type { ApiRoute } from '../api-route.ts';
import type { AppContext } from '../context.ts';
import { getLlmsTxtEndpoint, getOpenApiEndpoint } from '../endpoints.ts';
import { encodeJson, JSON_TYPE, TEXT_TYPE } from '../http/http.ts';
import { buildLlmsTxt } from '../llms-txt.ts';
import { buildOpenApi } from '../openapi/build.ts';

/** Serves a body built once, when the app starts. */
function serveOnce(contentType: string, build: (context: AppContext) => Uint8Array) {
  return (context: AppContext) => {
    const body = build(context);
    return () => ({ status: 200, headers: { 'content-type': contentType }, body });
  };
}

/**
 * The discovery routes, documenting `apiRoutes` and themselves.
 *
 * @param apiRoutes The public operations.
 */
export function discoveryRoutes(apiRoutes: readonly ApiRoute[]): ApiRoute[] {
  const discovery: ApiRoute[] = [
    {
      ...getLlmsTxtEndpoint,
      create: serveOnce(TEXT_TYPE, (context) => new TextEncoder().encode(buildLlmsTxt([...apiRoutes, ...discovery], context))),
    },
    {
      ...getOpenApiEndpoint,
      create: serveOnce(JSON_TYPE, (context) =>
        encodeJson(
          buildOpenApi([...apiRoutes, ...discovery], {
            serverUrl: context.publicBaseUrl,
            aliasDeprecation: context.aliasDeprecation,
          }),
        )),
    },
  ];
  return discovery;
}
