/** Broken apps for pricing, version, the discovery documents, download and the error object. */
import { errorAnswer, everyAnswer, isOperation, type Mutant, pathOf, readdress, restatus, rewriteHeaders, rewriteJson, when } from './_mutate.ts';

const WINDOWS_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64)';
const isError = (response: Response) => response.status >= 400;

export const documentMutants: Mutant[] = [
  {
    name: 'pricing in euros',
    clause: 'pricing.currency',
    wrap: when((r) => isOperation(r, 'GET', '/pricing'), async (r, next) => rewriteJson(await next(r), (body) => ({ ...body, currency: 'EUR' }))),
  },
  {
    name: 'version with an extra field',
    clause: 'version.closed',
    wrap: when((r) => isOperation(r, 'GET', '/version'), async (r, next) => rewriteJson(await next(r), (body) => ({ ...body, channel: 'stable' }))),
  },
  {
    name: 'llms.txt served as HTML',
    clause: 'rules.9',
    wrap: when((r) => pathOf(r) === '/llms.txt', async (r, next) => rewriteHeaders(await next(r), (h) => h.set('content-type', 'text/html; charset=utf-8'))),
  },
  {
    name: 'an OpenAPI 3.0 document',
    clause: 'versioning.5',
    wrap: when((r) => pathOf(r) === '/openapi.json', async (r, next) => rewriteJson(await next(r), (body) => ({ ...body, openapi: '3.0.3' }))),
  },
  {
    name: 'checkout status missing from /openapi.json',
    clause: 'endpoints.get-openapi-json',
    wrap: when((r) => pathOf(r) === '/openapi.json', async (r, next) =>
      rewriteJson(await next(r), (body) => {
        const paths = { ...(body['paths'] as Record<string, unknown>) };
        delete paths['/api/v1/checkout/status'];
        return { ...body, paths };
      })),
  },
  {
    name: 'a bearer token declared in /openapi.json',
    clause: 'authentication.no-credentials',
    wrap: when((r) => pathOf(r) === '/openapi.json', async (r, next) => rewriteJson(await next(r), (body) => ({ ...body, security: [{ bearer: [] }] }))),
  },
  {
    name: '/api/v1/llms.txt served too',
    clause: 'endpoints.discovery-unversioned',
    wrap: when((r) => pathOf(r) === '/api/v1/llms.txt', (r, next) => readdress(r, (url) => void (url.pathname = '/llms.txt')).then(next)),
  },
  {
    name: 'every client sent to the installer',
    clause: 'rules.2',
    wrap: when((r) => isOperation(r, 'GET', '/download'), (r, next) => {
      const headers = new Headers(r.headers);
      headers.set('user-agent', WINDOWS_UA);
      headers.set('sec-ch-ua-platform', '"Windows"');
      return next(new Request(r.url, { headers }));
    }),
  },
  {
    name: 'force=1 ignored',
    clause: 'rules.2',
    wrap: when((r) => isOperation(r, 'GET', '/download'), (r, next) => readdress(r, (url) => url.searchParams.delete('force')).then(next)),
  },
  {
    name: 'download answers 200 instead of redirecting',
    clause: 'endpoints.get-download',
    wrap: when((r) => isOperation(r, 'GET', '/download'), async (r, next) => restatus(await next(r), 200)),
  },
  {
    name: 'download refuses a source label',
    clause: 'endpoints.get-download',
    wrap: when(
      (r) => isOperation(r, 'GET', '/download') && new URL(r.url).searchParams.has('source'),
      async (r, next) => errorAnswer(await next(r), 400, 'invalid_parameter'),
    ),
  },
  {
    name: 'not_found named no_route',
    clause: 'errors.not_found',
    wrap: everyAnswer(async (
      response,
    ) => (response.status === 404 ? rewriteJson(response, (body) => (body['code'] === 'not_found' ? { ...body, code: 'no_route' } : body)) : response)),
  },
  {
    name: 'a 404 message that does not name the path',
    clause: 'errors.not_found',
    wrap: everyAnswer(async (response) => (response.status === 404 ? rewriteJson(response, (body) => ({ ...body, message: 'Not found.' })) : response)),
  },
  {
    name: 'errors with an extra status field',
    clause: 'error-object.closed',
    wrap: everyAnswer(async (response) => (isError(response) ? rewriteJson(response, (body) => ({ ...body, status: response.status })) : response)),
  },
  {
    name: 'errors without a resolution',
    clause: 'error-object.fields',
    wrap: everyAnswer(async (
      response,
    ) => (isError(response) ? rewriteJson(response, (body) => Object.fromEntries(Object.entries(body).filter(([name]) => name !== 'resolution'))) : response)),
  },
  {
    name: 'a spreadsheet upload accepted as feedback',
    clause: 'service.no-uploads',
    wrap: when(
      (r) => r.method === 'POST' && (r.headers.get('content-type') ?? '').startsWith('multipart/form-data'),
      async (r, next) => reanswerCreated(await next(new Request(new URL('/api/v1/version', r.url)))),
    ),
  },
  {
    name: 'a spreadsheet upload to checkout/create ignored: a session created',
    clause: 'service.no-uploads',
    strict: true,
    wrap: when(
      (r) => isOperation(r, 'POST', '/checkout/create') && (r.headers.get('content-type') ?? '').startsWith('multipart/form-data'),
      (r, next) => {
        const headers = new Headers(r.headers);
        headers.delete('content-type');
        return next(new Request(r.url, { method: 'POST', headers }));
      },
    ),
  },
  {
    name: 'a GraphQL endpoint',
    clause: 'service.no-remote-surfaces',
    wrap: when(
      (r) => pathOf(r) === '/api/graphql',
      async (r, next) => rewriteJson(await restatus(await next(new Request(new URL('/api/v1/version', r.url))), 200), () => ({ data: null })),
    ),
  },
];

/** A 201 {success: true} over a response's headers. */
async function reanswerCreated(response: Response): Promise<Response> {
  return rewriteJson(await restatus(response, 201), () => ({ success: true }));
}
