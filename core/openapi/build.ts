/**
 * Builds the OpenAPI 3.1 description from the route table and the valibot schemas, so that the document
 * cannot drift from what the router serves and what the operations validate.
 *
 * @module
 */
import { type ConversionConfig, toJsonSchema, toJsonSchemaDefs } from '@valibot/to-json-schema';
import { CHECKS_THE_SCHEMA_STATES } from '../schemas/stored-text.ts';
import type * as v from 'valibot';
import { ALIAS_PREFIX, V1_PREFIX } from '../endpoint.ts';
import type { ApiRoute } from '../api-route.ts';
import type { AliasDeprecation } from '../http/deprecation.ts';
import { ApiErrorSchema } from '../schemas/api-error.ts';
import { RoadmapFeatureSchema } from '../schemas/responses.ts';
import { headerComponents } from './headers.ts';
import { buildOperation, SCHEMA_REF } from './operation.ts';

type Json = Record<string, unknown>;

/** What the document says about the deployment. */
export interface OpenApiOptions {
  /** The public address of the API. */
  serverUrl: string;
  /** When set, the unversioned aliases are deprecated and their responses carry the notices. */
  aliasDeprecation: AliasDeprecation | null;
}

/** Named schemas that no route names itself but that readers look for: the error and a roadmap feature. */
const SHARED_SCHEMAS: Record<string, v.GenericSchema> = {
  ApiError: ApiErrorSchema,
  RoadmapFeature: RoadmapFeatureSchema,
};

/** Points `#/$defs/X` refs at the OpenAPI components. */
function relink(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(relink);
  if (value === null || typeof value !== 'object') return value;
  const out: Json = {};
  for (const [key, inner] of Object.entries(value)) {
    out[key] = key === '$ref' && typeof inner === 'string' ? inner.replace('#/$defs/', SCHEMA_REF) : relink(inner);
  }
  return out;
}

/** Every header a response of the document refers to. */
function referencedHeaders(paths: Json): Set<string> {
  const names = new Set<string>();
  const text = JSON.stringify(paths);
  for (const match of text.matchAll(/"#\/components\/headers\/([^"]+)"/g)) names.add(match[1]!);
  return names;
}

/**
 * The server address. A loopback address is a development default, not a public address: the document
 * then names the server relative to where it is served ("/"), which is right for whoever fetched it.
 */
function server(url: string): Json {
  const host = /^[a-z][a-z0-9+.-]*:\/\/(\[[^\]]*\]|[^/:]*)/i.exec(url)?.[1]?.toLowerCase() ?? '';
  const loopback = host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || host.startsWith('127.');
  return loopback ? { url: '/', description: 'The host that serves this document' } : { url, description: 'This deployment' };
}

function deprecationNote(deprecation: AliasDeprecation): string {
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return (
    `Deprecated since ${day(deprecation.deprecatedAt)}; it stops answering after ${day(deprecation.sunsetAt)}. ` +
    'Every response carries the Deprecation, Sunset and successor-version Link headers.'
  );
}

/** valibot to JSON Schema; the checks a pattern already states (stored-text.ts) add nothing. */
const CONVERSION = {
  target: 'draft-2020-12',
  overrideAction: ({ valibotAction, jsonSchema }) =>
    valibotAction.type === 'check' && CHECKS_THE_SCHEMA_STATES.has((valibotAction as { requirement?: unknown }).requirement) ? jsonSchema : undefined,
} as const satisfies ConversionConfig;

/**
 * Builds the document.
 *
 * @param routes Every public route, discovery documents included.
 * @param options Deployment facts.
 * @returns The OpenAPI 3.1 object.
 */
export function buildOpenApi(routes: readonly ApiRoute[], options: OpenApiOptions): Json {
  const definitions: Record<string, v.GenericSchema> = { ...SHARED_SCHEMAS };
  for (const route of routes) {
    if (route.body) definitions[route.body.schemaName] = route.body.schema;
    if ('schemaName' in route.success) definitions[route.success.schemaName] = route.success.schema;
  }
  const schemas = relink(toJsonSchemaDefs(definitions, CONVERSION)) as Json;
  const parameterSchema = (schema: v.GenericSchema): Json => {
    const result = toJsonSchema(schema, { ...CONVERSION, definitions }) as Json;
    delete result['$schema'];
    delete result['$defs'];
    return relink(result) as Json;
  };

  const deprecation = options.aliasDeprecation;
  const common = {
    aliasesDeprecated: deprecation !== null,
    deprecationNote: deprecation ? deprecationNote(deprecation) : '',
    parameterSchema,
  };
  const paths: Json = {};
  const add = (path: string, route: ApiRoute, alias: boolean) => {
    const op = buildOperation(route, { ...common, alias });
    paths[path] = { ...(paths[path] as Json | undefined), [route.method.toLowerCase()]: op };
  };
  for (const route of routes) add(route.versioned ? V1_PREFIX + route.path : route.path, route, false);
  for (const route of routes) if (route.versioned) add(ALIAS_PREFIX + route.path, route, true);

  const tags = [...new Set(routes.map((r) => r.tag)), 'Compatibility aliases'];
  return {
    openapi: '3.1.1',
    info: {
      title: 'Spreadsheet converter public website API',
      version: '1.0.0',
      summary: 'Offer, installer redirect, version check, feedback, roadmap votes and checkout status.',
      description: DESCRIPTION,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [server(options.serverUrl)],
    security: [],
    tags: tags.map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? name })),
    paths,
    components: { schemas, headers: headerComponents(referencedHeaders(paths)) },
  };
}

const DESCRIPTION = `The public website API of a desktop product that converts legacy spreadsheets (.123, .wk1, .wk3,
.wk4, .wks) to XLSX, PDF, HTML, Markdown, CSV and XLS locally on Windows. It accepts no spreadsheet uploads and is not
a conversion service. No public endpoint requires credentials; the operator-facing notification endpoint
accepts only events signed by the payment provider.

## Rate limit

Every response, errors included, carries the RateLimit, RateLimit-Policy, RateLimit-Limit, RateLimit-Remaining
and RateLimit-Reset headers (draft-ietf-httpapi-ratelimit-headers-08): 120 requests per client IP per 60
seconds by default, counted in a fixed window per client (IPv6 clients by their /64). A 429 \`rate_limited\`
answer also carries Retry-After, in seconds.

The operator probes GET /healthz and GET /readyz are the one exception: they count against no quota, so
that load balancers probing every second cost no client anything, and therefore carry no rate-limit
headers (there is no quota state to report, and reading a client's counter would put a storage query on
every probe).

The update files under /updates/{channel}/ (tag Update files, an addition) are files for HTTP caches, not
endpoints of the API: their 200, 304 and 302 answers count against no quota and carry no rate-limit
headers (a cache hands one client's copy to every other), while their 400 and 404 answers are counted and
carry them like every error.

## Request ids

Every response carries X-Request-Id, but an update file's 200, 304 and 302 (a cache hands one fetch's
answer to everyone): the caller's own X-Request-Id when it is 1 to 128 characters of
A-Z a-z 0-9 . _ : -, otherwise a fresh UUID. Quote it when reporting a problem: every server log line about
the request carries it. Error bodies stay exactly {code, message, resolution}.

## Errors

Every error body is exactly {code, message, resolution}; the ApiError schema lists every code with its
status. These answers belong to no operation, so they are described here:

- **404 \`not_found\`** for any path not listed in this document; the message names the path.
- **405 \`method_not_allowed\`** for a listed path with a method it does not answer, with an Allow header
  that lists the methods it does answer.
- **400 \`malformed_request\`**, **408 \`request_timeout\`** and **431 \`headers_too_large\`** for a
  request that is not valid HTTP (an HTTP/1.1 request without Host included), too slow, or has too large
  headers; the connection is then closed.
- **417 \`expectation_failed\`** for an Expect header other than 100-continue, and **405
  \`method_not_allowed\`** for CONNECT (this server is not a proxy); the connection is then closed.

All of them carry the same rate-limit headers as every other response.

## Versioning

Stable operations live under /api/v1; the unversioned /api paths are compatibility aliases of the same
operations. When the operator deprecates them, they are marked deprecated here and their responses carry
Deprecation (RFC 9745), Sunset (RFC 8594) and a successor-version Link to the /api/v1 path.`;

const TAG_DESCRIPTIONS: Record<string, string> = {
  Offer: 'The live product offer.',
  'Desktop app': 'Installer download and update checks.',
  Feedback: 'Feedback and reviews.',
  Roadmap: 'The public roadmap and its per-IP votes.',
  Checkout: 'Hosted checkout sessions, payment status and license keys.',
  Licenses: "License keys after the sale (additions to the spec): a key's standing, re-checked by the desktop app, and the buyer's self-service resend.",
  Changelog: 'The releases that reached every client, with the roadmap items each shipped (additions to the spec): JSON Feed 1.1 and Atom, cacheable.',
  Mail: 'Mail a person can stop (an addition to the spec): the one-click unsubscribe address (RFC 8058) of the shipped-request mails.',
  'Update files': 'The TUF 1.0 metadata of each update channel (additions to the spec): files for HTTP caches, with no /api alias and ' +
    'outside the quota but for their errors. The desktop app verifies them and decides its staged rollout on its own (docs/updates.md).',
  Discovery: 'Documents that describe this API.',
  Operator: "Operator-facing endpoints: the payment provider's notifications and the load-balancer probes, never " +
    'called by the website or the desktop app.',
  'Compatibility aliases': 'Unversioned /api paths kept for existing clients; prefer /api/v1.',
};
