/**
 * GET /llms.txt and GET /openapi.json: the two documents that describe this API.
 *
 * @module
 */
import type { ApiRoute } from '../api.ts';
import type { AppContext } from '../context.ts';
import { encodeJson, JSON_TYPE, TEXT_TYPE } from '../http.ts';
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
      operationId: 'getLlmsTxt',
      method: 'GET',
      path: '/llms.txt',
      versioned: false,
      tag: 'Discovery',
      summary: 'Get the plain-text summary for automated agents',
      description: 'A product summary in the llms.txt format, with links to every endpoint and the docs.',
      success: { status: 200, description: 'The summary.', mediaType: 'text/plain', freeForm: true },
      errors: [],
      create: serveOnce(TEXT_TYPE, (context) =>
        new TextEncoder().encode(buildLlmsTxt([...apiRoutes, ...discovery], context)),
      ),
    },
    {
      operationId: 'getOpenApi',
      method: 'GET',
      path: '/openapi.json',
      versioned: false,
      tag: 'Discovery',
      summary: 'Get the OpenAPI description of this API',
      description: 'The OpenAPI 3.1 description of these public endpoints, interface version 1.0.0.',
      success: { status: 200, description: 'The OpenAPI document.', mediaType: 'application/json', freeForm: true },
      errors: [],
      create: serveOnce(JSON_TYPE, (context) =>
        encodeJson(
          buildOpenApi([...apiRoutes, ...discovery], {
            serverUrl: context.publicBaseUrl,
            aliasDeprecation: context.aliasDeprecation,
          }),
        ),
      ),
    },
  ];
  return discovery;
}
